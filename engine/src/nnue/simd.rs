//! The network's two hot loops, at a width fixed when compiled: an accumulator from another
//! plus and minus some weight columns (`accumulate`), and one half of the output layer, the
//! sum of `clamp(v, 0, QA)² * w` (`screlu_dot`). Each has a scalar form and, on x86-64, AVX2
//! and AVX-512 forms chosen at run time by what the CPU has (`Level`); all give the same
//! numbers (the i16 sums wrap alike, and the output is exact), which the tests check.
//!
//! The output's squared activation (up to 255² = 65025) times an output weight (at QB = 1024,
//! up to about 2000) does not fit 16 bits, so the usual trick (the clipped value times the
//! weight in 16 bits, then a multiply-add with the value) would overflow. Instead v² is split
//! into its high and low bytes and each is multiply-added with the weights into 32-bit lanes:
//! `v²·w = 256·hi·w + lo·w`. Every lane then stays below 2³¹ for any i16 weights up to a width
//! of 1024 (64 multiply-adds of at most 2·255·32768), and the result is exactly the scalar one.
//!
//! Owns: `Level`, the kernels and their safe interface.
//! Must not know: positions, layouts, files.

use super::network::QA;

/// The instruction sets the kernels are written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Isa {
    Scalar,
    Avx2,
    Avx512,
}

/// An instruction set this CPU runs: made only by `detected` and `available` (or the scalar
/// one, which every CPU runs), so that a kernel given one may use it without asking again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Level(Isa);

impl Level {
    pub const SCALAR: Level = Level(Isa::Scalar);

    /// The fastest level this CPU runs.
    pub fn detected() -> Level {
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw") {
                return Level(Isa::Avx512);
            }
            if is_x86_feature_detected!("avx2") {
                return Level(Isa::Avx2);
            }
        }
        Level::SCALAR
    }

    /// The level to run a network `width` wide at: the fastest, except that below 512 neurons
    /// AVX2 measured faster than AVX-512 in a search (on a Xeon that lowers its clock for
    /// 512-bit work: 1.56M against 1.53M nodes/s at 128, 1.49M against 1.44M at 256, and
    /// 1.13M against 1.24M at 1024; docs/history/network.md).
    pub fn preferred(width: usize) -> Level {
        let best = Level::detected();
        if width < 512 && best == Level(Isa::Avx512) {
            Level(Isa::Avx2)
        } else {
            best
        }
    }

    /// Every level this CPU runs, the scalar one first.
    pub fn available() -> Vec<Level> {
        let best = Level::detected();
        [Isa::Scalar, Isa::Avx2, Isa::Avx512].into_iter().map(Level).filter(|&l| l <= best).collect()
    }

    pub fn name(self) -> &'static str {
        match self.0 {
            Isa::Scalar => "scalar",
            Isa::Avx2 => "AVX2",
            Isa::Avx512 => "AVX-512",
        }
    }
}

/// `dst = src + Σ columns(adds) - Σ columns(subs)`, wrapping, where column `i` is
/// `weights[i * N..(i + 1) * N]`.
///
/// Panics when a slice is not N long or a column lies outside `weights` (a caller's bug, never
/// the data's: the indices come from the layout that sized the weights).
#[inline]
pub fn accumulate<const N: usize>(
    level: Level,
    dst: &mut [i16],
    src: &[i16],
    weights: &[i16],
    adds: &[u32],
    subs: &[u32],
) {
    assert!(dst.len() == N && src.len() == N, "accumulator width");
    let columns = weights.len() / N;
    assert!(adds.iter().chain(subs).all(|&i| (i as usize) < columns), "column outside the weights");
    match level.0 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the lengths and column indices were checked above, and the CPU has AVX2 (a
        // `Level` is one the CPU runs).
        Isa::Avx2 if N.is_multiple_of(16) => unsafe {
            x86::accumulate_avx2::<N>(dst.as_mut_ptr(), src.as_ptr(), weights.as_ptr(), adds, subs)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, and the CPU has AVX-512 F and BW.
        Isa::Avx512 if N.is_multiple_of(32) => unsafe {
            x86::accumulate_avx512::<N>(dst.as_mut_ptr(), src.as_ptr(), weights.as_ptr(), adds, subs)
        },
        _ => accumulate_scalar::<N>(dst, src, weights, adds, subs),
    }
}

fn accumulate_scalar<const N: usize>(dst: &mut [i16], src: &[i16], weights: &[i16], adds: &[u32], subs: &[u32]) {
    dst.copy_from_slice(src);
    let column = |i: u32| &weights[i as usize * N..(i as usize + 1) * N];
    for &a in adds {
        dst.iter_mut().zip(column(a)).for_each(|(v, w)| *v = v.wrapping_add(*w));
    }
    for &s in subs {
        dst.iter_mut().zip(column(s)).for_each(|(v, w)| *v = v.wrapping_sub(*w));
    }
}

/// `Σ clamp(values[j], 0, QA)² * weights[j]` over the N neurons of one perspective.
#[inline]
pub fn screlu_dot<const N: usize>(level: Level, values: &[i16], weights: &[i16]) -> i64 {
    assert!(values.len() == N && weights.len() == N, "output width");
    assert!(N <= 1024, "wider than the 32-bit lanes allow");
    match level.0 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: both slices are N long, and the CPU has AVX2.
        Isa::Avx2 if N.is_multiple_of(16) => unsafe { x86::screlu_dot_avx2::<N>(values.as_ptr(), weights.as_ptr()) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: both slices are N long, and the CPU has AVX-512 F and BW.
        Isa::Avx512 if N.is_multiple_of(32) => unsafe {
            x86::screlu_dot_avx512::<N>(values.as_ptr(), weights.as_ptr())
        },
        _ => screlu_dot_scalar(values, weights),
    }
}

fn screlu_dot_scalar(values: &[i16], weights: &[i16]) -> i64 {
    values
        .iter()
        .zip(weights)
        .map(|(&v, &w)| {
            let v = i64::from(v.clamp(0, QA as i16));
            v * v * i64::from(w)
        })
        .sum()
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::QA;
    use std::arch::x86_64::*;

    /// # Safety
    /// The CPU has AVX2; `dst` and `src` hold N values; every column index in `adds` and
    /// `subs` is below `weights`' length / N; N is a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn accumulate_avx2<const N: usize>(
        dst: *mut i16,
        src: *const i16,
        weights: *const i16,
        adds: &[u32],
        subs: &[u32],
    ) {
        for c in (0..N).step_by(16) {
            let mut r = _mm256_loadu_si256(src.add(c).cast());
            for &a in adds {
                r = _mm256_add_epi16(r, _mm256_loadu_si256(weights.add(a as usize * N + c).cast()));
            }
            for &s in subs {
                r = _mm256_sub_epi16(r, _mm256_loadu_si256(weights.add(s as usize * N + c).cast()));
            }
            _mm256_storeu_si256(dst.add(c).cast(), r);
        }
    }

    /// # Safety
    /// As `accumulate_avx2`, with AVX-512 F and BW, and N a multiple of 32.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn accumulate_avx512<const N: usize>(
        dst: *mut i16,
        src: *const i16,
        weights: *const i16,
        adds: &[u32],
        subs: &[u32],
    ) {
        for c in (0..N).step_by(32) {
            let mut r = _mm512_loadu_si512(src.add(c).cast());
            for &a in adds {
                r = _mm512_add_epi16(r, _mm512_loadu_si512(weights.add(a as usize * N + c).cast()));
            }
            for &s in subs {
                r = _mm512_sub_epi16(r, _mm512_loadu_si512(weights.add(s as usize * N + c).cast()));
            }
            _mm512_storeu_si512(dst.add(c).cast(), r);
        }
    }

    /// # Safety
    /// The CPU has AVX2; `values` and `weights` hold N values; N is a multiple of 16, at most 1024.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot_avx2<const N: usize>(values: *const i16, weights: *const i16) -> i64 {
        let (zero, qa, low_byte) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16), _mm256_set1_epi16(0xff));
        let (mut high_sum, mut low_sum) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for c in (0..N).step_by(16) {
            let v = _mm256_min_epi16(_mm256_max_epi16(_mm256_loadu_si256(values.add(c).cast()), zero), qa);
            // v² < 2¹⁶: exact in the low 16 bits, read as unsigned by the byte split.
            let square = _mm256_mullo_epi16(v, v);
            let w = _mm256_loadu_si256(weights.add(c).cast());
            high_sum = _mm256_add_epi32(high_sum, _mm256_madd_epi16(_mm256_srli_epi16::<8>(square), w));
            low_sum = _mm256_add_epi32(low_sum, _mm256_madd_epi16(_mm256_and_si256(square, low_byte), w));
        }
        let mut high = [0i32; 8];
        let mut low = [0i32; 8];
        _mm256_storeu_si256(high.as_mut_ptr().cast(), high_sum);
        _mm256_storeu_si256(low.as_mut_ptr().cast(), low_sum);
        256 * high.iter().map(|&x| i64::from(x)).sum::<i64>() + low.iter().map(|&x| i64::from(x)).sum::<i64>()
    }

    /// # Safety
    /// As `screlu_dot_avx2`, with AVX-512 F and BW, and N a multiple of 32.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn screlu_dot_avx512<const N: usize>(values: *const i16, weights: *const i16) -> i64 {
        let (zero, qa, low_byte) = (_mm512_setzero_si512(), _mm512_set1_epi16(QA as i16), _mm512_set1_epi16(0xff));
        let (mut high_sum, mut low_sum) = (_mm512_setzero_si512(), _mm512_setzero_si512());
        for c in (0..N).step_by(32) {
            let v = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512(values.add(c).cast()), zero), qa);
            let square = _mm512_mullo_epi16(v, v);
            let w = _mm512_loadu_si512(weights.add(c).cast());
            high_sum = _mm512_add_epi32(high_sum, _mm512_madd_epi16(_mm512_srli_epi16::<8>(square), w));
            low_sum = _mm512_add_epi32(low_sum, _mm512_madd_epi16(_mm512_and_si512(square, low_byte), w));
        }
        let mut high = [0i32; 16];
        let mut low = [0i32; 16];
        _mm512_storeu_si512(high.as_mut_ptr().cast(), high_sum);
        _mm512_storeu_si512(low.as_mut_ptr().cast(), low_sum);
        256 * high.iter().map(|&x| i64::from(x)).sum::<i64>() + low.iter().map(|&x| i64::from(x)).sum::<i64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::random::SplitMix64;

    fn random_values(rng: &mut SplitMix64, len: usize, range: i64) -> Vec<i16> {
        (0..len).map(|_| (rng.below(2 * range as u64 + 1) as i64 - range) as i16).collect()
    }

    fn kernels_agree<const N: usize>(rng: &mut SplitMix64) {
        let columns = 40;
        // Full-range weights: the sums wrap, and must wrap alike.
        let weights = random_values(rng, columns * N, 32767);
        let src = random_values(rng, N, 32767);
        let adds: Vec<u32> = (0..rng.below(6)).map(|_| rng.below(columns as u64) as u32).collect();
        let subs: Vec<u32> = (0..rng.below(6)).map(|_| rng.below(columns as u64) as u32).collect();
        let mut expected = vec![0; N];
        accumulate_scalar::<N>(&mut expected, &src, &weights, &adds, &subs);
        // The extremes of both operands of the output, and values either side of the clip.
        let output_weights = random_values(rng, N, 32768 - 1);
        let mut values = random_values(rng, N, 400);
        values[0] = i16::MAX;
        values[1] = QA as i16;
        let mut extreme_weights = output_weights.clone();
        extreme_weights.iter_mut().step_by(2).for_each(|w| *w = i16::MIN);
        let at_clip = vec![QA as i16; N];
        for level in Level::available() {
            let mut got = vec![0; N];
            accumulate::<N>(level, &mut got, &src, &weights, &adds, &subs);
            assert_eq!(got, expected, "{} accumulate, width {N}", level.name());
            for (v, w) in [(&values, &output_weights), (&at_clip, &extreme_weights), (&values, &extreme_weights)] {
                assert_eq!(screlu_dot::<N>(level, v, w), screlu_dot_scalar(v, w), "{} output, width {N}", level.name());
            }
        }
    }

    #[test]
    fn every_level_gives_the_scalar_numbers_at_every_width() {
        let mut rng = SplitMix64::new(51);
        for _ in 0..20 {
            kernels_agree::<32>(&mut rng);
            kernels_agree::<64>(&mut rng);
            kernels_agree::<128>(&mut rng);
            kernels_agree::<256>(&mut rng);
            kernels_agree::<512>(&mut rng);
            kernels_agree::<768>(&mut rng);
            kernels_agree::<1024>(&mut rng);
        }
    }

    #[test]
    fn the_widest_output_at_its_extremes_is_exact() {
        // Every activation at the clip and every weight at an extreme: the case that comes
        // nearest to overflowing a 32-bit lane.
        let values = [QA as i16; 1024];
        for w in [i16::MIN, i16::MAX] {
            let weights = [w; 1024];
            let exact = 1024 * i64::from(QA) * i64::from(QA) * i64::from(w);
            for level in Level::available() {
                assert_eq!(screlu_dot::<1024>(level, &values, &weights), exact, "{}", level.name());
            }
        }
    }
}
