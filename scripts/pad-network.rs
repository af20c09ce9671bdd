//! A network file made wider by neurons whose weights are all zero: it evaluates every
//! position exactly as the original, so a search with it visits the same tree and only the
//! cost of a node changes (the speed of a wider network, docs/history/network.md).
//!
//!     cargo run --release --example pad-network -- IN.nnue OUT.nnue WIDTH

use menagerie::nnue::{file, Network};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, width] = args.as_slice() else {
        eprintln!("usage: pad-network IN.nnue OUT.nnue WIDTH");
        std::process::exit(2);
    };
    let fail = |e: String| -> ! {
        eprintln!("error: {e}");
        std::process::exit(1);
    };
    let net = file::load(std::path::Path::new(input)).unwrap_or_else(|e| fail(e.to_string()));
    let width: usize = width.parse().unwrap_or_else(|_| fail(format!("width {width}")));
    if width < net.hidden {
        fail(format!("{width} is narrower than the network ({})", net.hidden));
    }
    let (h, w) = (net.hidden, width);
    let mut wide = Network::zeroed(net.layout.clone(), w, net.buckets);
    wide.correction = net.correction;
    wide.output_bias = net.output_bias.clone();
    // Every row of `h` values (an input's column, the bias, each bucket's two output halves)
    // keeps its values, followed by the new neurons' zeros.
    let rows = |from: &[i16], to: &mut [i16]| {
        for (old, new) in from.chunks(h).zip(to.chunks_mut(w)) {
            new[..h].copy_from_slice(old);
        }
    };
    rows(&net.input_weights, &mut wide.input_weights);
    rows(&net.input_bias, &mut wide.input_bias);
    rows(&net.output_weights, &mut wide.output_weights);
    let notes = [format!("{input} padded from {h} to {w} neurons of zero weights")];
    std::fs::write(output, file::write(&wide, &notes)).unwrap_or_else(|e| fail(format!("{output}: {e}")));
}
