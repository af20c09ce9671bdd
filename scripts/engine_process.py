"""An engine process for the protocol scripts (stop-latency.py, protocol-latency.py): commands
written to stdin, stdout lines queued with the monotonic time they were read, the end of output
and hangs reported as EngineFailure; and the two protocols' error lines."""
import queue
import subprocess
import threading
import time


class EngineFailure(Exception):
    """The engine died, hung or answered something unexpected."""


class Engine:
    """An engine process; stdout lines are queued with the monotonic time they were read."""

    def __init__(self, path, label):
        self.label = label
        try:
            self.proc = subprocess.Popen(
                [path],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as e:
            raise EngineFailure(f"{label}: cannot start {path}: {e}")
        self.lines = queue.Queue()
        self.stderr_tail = []
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self):
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), line.rstrip("\r\n")))
        self.lines.put((time.monotonic(), None))

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr_tail = (self.stderr_tail + [line.rstrip("\r\n")])[-10:]

    def send(self, line):
        """Write one command; returns the time taken just before writing it (the engine may
        answer, and the reader thread stamp the answer, before the write call returns)."""
        sent = time.monotonic()
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineFailure(f"{self.label}: the engine died ({self._status()}) before '{line}'")
        return sent

    def _status(self):
        code = self.proc.poll()
        text = "still running" if code is None else f"exit status {code}"
        if self.stderr_tail:
            text += "; stderr: " + " | ".join(self.stderr_tail)
        return text

    def expect(self, wanted, timeout, what, bad=None):
        """Read lines until wanted(line); returns (time read, line). Lines for which bad(line) is
        true, the end of output and the timeout raise EngineFailure."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineFailure(f"{self.label}: no {what} within {timeout:g} s (the engine hangs)")
            try:
                t, line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                time.sleep(0.1)
                raise EngineFailure(f"{self.label}: the engine died waiting for {what} ({self._status()})")
            if wanted(line):
                return t, line
            if bad is not None and bad(line):
                raise EngineFailure(f"{self.label}: unexpected '{line}' waiting for {what}")

    def pending(self):
        """Lines already read and not yet consumed."""
        out = []
        while True:
            try:
                _, line = self.lines.get_nowait()
            except queue.Empty:
                return out
            if line is None:
                raise EngineFailure(f"{self.label}: the engine died ({self._status()})")
            out.append(line)

    def close(self, quit_command="quit"):
        try:
            self.send(quit_command)
            self.proc.wait(timeout=5)
        except (EngineFailure, subprocess.TimeoutExpired):
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def uci_error(line):
    return line.startswith("info string error")


def xboard_error(line):
    return line.startswith(("Error", "tellusererror", "Illegal move"))
