//! The plumbing under the serving loop: how requests are read off stdin and
//! how replies reach stdout.
//!
//! Reading and writing *badly* are faults in their own right (a naive reader
//! drops pipelined requests, a `while read` loop drops an unterminated line,
//! a block-buffered writer holds replies back), so each way is a small type
//! here rather than a branch inside the protocol logic.

use std::io::{self, BufRead, BufReader, Read, Write};

/// The read size of the naive reader, and the buffer of the careful one.
pub(crate) const READ_CHUNK: usize = 64 * 1024;

/// The longest request the mock reads (a line, or a one-shot document): far
/// above any runtime's, and low enough that `/dev/zero` on stdin is an error,
/// not an allocation of all memory.
pub(crate) const MAX_REQUEST_BYTES: u64 = 64 * 1024 * 1024;

fn too_long() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("a request longer than {MAX_REQUEST_BYTES} bytes: not a runtime's request"))
}

/// Yields stdin one line at a time.
pub(crate) enum LineSource<R: Read> {
    /// Buffered and careful: every line, of any length, in order.
    Careful(BufReader<R>),
    /// One raw read, one line: whatever else the read returned (the next
    /// pipelined requests) is thrown away.
    Naive { input: R, chunk: Vec<u8>, pending: Vec<u8> },
}

impl<R: Read> LineSource<R> {
    pub(crate) fn careful(input: R) -> Self {
        LineSource::Careful(BufReader::with_capacity(READ_CHUNK, input))
    }

    pub(crate) fn naive(input: R) -> Self {
        LineSource::Naive { input, chunk: vec![0; READ_CHUNK], pending: Vec::new() }
    }

    /// Replaces `line` with the next line (terminator included when there was
    /// one); `false` at EOF.
    pub(crate) fn next_line(&mut self, line: &mut Vec<u8>) -> io::Result<bool> {
        line.clear();
        match self {
            // `read_until` grows `line` as needed, so lines of many MiB fit, up to the cap.
            LineSource::Careful(reader) => {
                let n = reader.by_ref().take(MAX_REQUEST_BYTES + 1).read_until(b'\n', line)?;
                if line.len() as u64 > MAX_REQUEST_BYTES {
                    return Err(too_long());
                }
                Ok(n > 0)
            }
            LineSource::Naive { input, chunk, pending } => loop {
                let n = match input.read(chunk) {
                    Ok(n) => n,
                    Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                    Err(err) => return Err(err),
                };
                if n == 0 {
                    line.append(pending);
                    return Ok(!line.is_empty());
                }
                let data = &chunk[..n];
                match data.iter().position(|&b| b == b'\n') {
                    Some(pos) => {
                        line.append(pending);
                        line.extend_from_slice(&data[..=pos]);
                        return Ok(true);
                    }
                    None if (pending.len() + n) as u64 > MAX_REQUEST_BYTES => return Err(too_long()),
                    None => pending.extend_from_slice(data),
                }
            },
        }
    }
}

/// Reads stdin to EOF, as a careful one-shot plugin does.
pub(crate) fn read_all<R: Read>(input: R) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    input.take(MAX_REQUEST_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_REQUEST_BYTES {
        return Err(too_long());
    }
    Ok(bytes)
}

/// What a shell `while read line` loop collects: complete lines only, joined
/// by newlines. An unterminated last line (the way runtimes send one-shot
/// requests) is lost.
pub(crate) fn read_complete_lines<R: Read>(input: R) -> io::Result<Vec<u8>> {
    let mut reader = BufReader::new(input.take(MAX_REQUEST_BYTES + 1));
    let mut joined = Vec::new();
    let mut line = Vec::new();
    let mut first = true;
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 || line.pop() != Some(b'\n') {
            return Ok(joined);
        }
        if !std::mem::replace(&mut first, false) {
            joined.push(b'\n');
        }
        joined.extend_from_slice(&line);
    }
}

/// Where replies go: straight through with a flush per write, held back until
/// EOF (a block-buffered writer), or dropped for good once `stopped`.
pub(crate) struct Sink<W: Write> {
    out: W,
    held: Option<Vec<u8>>,
    /// Set after a partial line: nothing more is ever written.
    pub(crate) stopped: bool,
}

impl<W: Write> Sink<W> {
    /// A sink that writes through, or holds everything back when `hold`.
    pub(crate) fn new(out: W, hold: bool) -> Self {
        Sink { out, held: hold.then(Vec::new), stopped: false }
    }

    pub(crate) fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.stopped {
            return Ok(());
        }
        match &mut self.held {
            Some(held) => held.extend_from_slice(bytes),
            None => {
                self.out.write_all(bytes)?;
                self.out.flush()?;
            }
        }
        Ok(())
    }

    /// Writes whatever was held back, as a buffered writer does at exit.
    pub(crate) fn finish(&mut self) -> io::Result<()> {
        if let Some(held) = self.held.take() {
            self.out.write_all(&held)?;
            self.out.flush()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_lines<R: Read>(mut source: LineSource<R>) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut line = Vec::new();
        while source.next_line(&mut line).unwrap() {
            out.push(line.clone());
        }
        out
    }

    #[test]
    fn careful_and_naive_sources() {
        let input: &[u8] = b"a\nb\nc";
        assert_eq!(all_lines(LineSource::careful(input)), [&b"a\n"[..], b"b\n", b"c"]);
        // One in-memory read returns everything: only "a" survives.
        assert_eq!(all_lines(LineSource::naive(input)), [&b"a\n"[..]]);
        // A line spread over several reads is still assembled.
        let long = [vec![b'x'; READ_CHUNK * 2], b"\n".to_vec()].concat();
        assert_eq!(all_lines(LineSource::naive(long.as_slice())), vec![long]);
    }

    #[test]
    fn while_read_drops_the_unterminated_line() {
        assert_eq!(read_complete_lines(&b"{\"a\":1}"[..]).unwrap(), b"");
        assert_eq!(read_complete_lines(&b"\n{}\nrest"[..]).unwrap(), b"\n{}");
    }

    #[test]
    fn held_sink_writes_at_finish() {
        let mut out = Vec::new();
        let mut sink = Sink::new(&mut out, true);
        sink.write(b"x").unwrap();
        sink.finish().unwrap();
        assert_eq!(out, b"x");
    }
}
