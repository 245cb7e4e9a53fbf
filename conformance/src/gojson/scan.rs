//! The syntax check Go runs over the whole input before decoding anything
//! (scanner.go `checkValid`): the same state machine, so the same first
//! error, message and offset.
//!
//! Go's scanner is a byte-at-a-time state machine (`stateBeginValue`,
//! `stateInString`, `stateNeg`, ...) with a stack of open containers limited
//! to `maxNestingDepth` (10000). A byte a state does not accept produces
//! `invalid character <c> <context>` at offset "bytes consumed so far"; at
//! the end of input Go feeds one space to flush a pending number or literal,
//! so a cut-off literal reports the space (`invalid character ' ' in literal
//! true (expecting 'e')`), and anything else still open is `unexpected end of
//! JSON input` at offset `len(data)`.

use super::GoJsonError;

/// Go's `maxNestingDepth`.
pub const MAX_DEPTH: usize = 10000;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    BeginValueOrEmpty,
    BeginValue,
    BeginStringOrEmpty,
    BeginString,
    EndValue,
    EndTop,
    InString,
    InStringEsc,
    /// Inside `\u`, having read this many hex digits.
    InStringEscU(u8),
    Neg,
    One,
    Zero,
    Dot,
    Dot0,
    E,
    ESign,
    E0,
    /// Inside a literal (`true`, `false`, `null`): the word and how many of
    /// its bytes have been read.
    Literal(&'static [u8], u8),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Container {
    ObjectKey,
    ObjectValue,
    ArrayValue,
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

struct Scanner {
    state: State,
    stack: Vec<Container>,
    end_top: bool,
    /// Bytes consumed, counting the current one: Go's `scanner.bytes`.
    bytes: usize,
}

type Step = Result<(), String>;

fn invalid(c: u8, context: &str) -> String {
    format!("invalid character {} {}", quote_char(c), context)
}

impl Scanner {
    fn push(&mut self, c: u8, container: Container, next: State) -> Step {
        self.stack.push(container);
        if self.stack.len() > MAX_DEPTH {
            return Err(invalid(c, "exceeded max depth"));
        }
        self.state = next;
        Ok(())
    }

    fn pop(&mut self) {
        self.stack.pop();
        if self.stack.is_empty() {
            self.state = State::EndTop;
            self.end_top = true;
        } else {
            self.state = State::EndValue;
        }
    }

    fn step(&mut self, c: u8) -> Step {
        match self.state {
            State::BeginValueOrEmpty => {
                if is_space(c) {
                    Ok(())
                } else if c == b']' {
                    self.end_value(c)
                } else {
                    self.begin_value(c)
                }
            }
            State::BeginValue => self.begin_value(c),
            State::BeginStringOrEmpty => {
                if is_space(c) {
                    Ok(())
                } else if c == b'}' {
                    if let Some(top) = self.stack.last_mut() {
                        *top = Container::ObjectValue;
                    }
                    self.end_value(c)
                } else {
                    self.begin_string(c)
                }
            }
            State::BeginString => self.begin_string(c),
            State::EndValue => self.end_value(c),
            State::EndTop => self.end_top(c),
            State::InString => {
                match c {
                    b'"' => self.state = State::EndValue,
                    b'\\' => self.state = State::InStringEsc,
                    c if c < 0x20 => return Err(invalid(c, "in string literal")),
                    _ => {}
                }
                Ok(())
            }
            State::InStringEsc => match c {
                b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => {
                    self.state = State::InString;
                    Ok(())
                }
                b'u' => {
                    self.state = State::InStringEscU(0);
                    Ok(())
                }
                _ => Err(invalid(c, "in string escape code")),
            },
            State::InStringEscU(n) => {
                if !c.is_ascii_hexdigit() {
                    return Err(invalid(c, "in \\u hexadecimal character escape"));
                }
                self.state = if n == 3 { State::InString } else { State::InStringEscU(n + 1) };
                Ok(())
            }
            State::Neg => match c {
                b'0' => {
                    self.state = State::Zero;
                    Ok(())
                }
                b'1'..=b'9' => {
                    self.state = State::One;
                    Ok(())
                }
                _ => Err(invalid(c, "in numeric literal")),
            },
            State::One if c.is_ascii_digit() => Ok(()),
            State::One | State::Zero => match c {
                b'.' => {
                    self.state = State::Dot;
                    Ok(())
                }
                b'e' | b'E' => {
                    self.state = State::E;
                    Ok(())
                }
                _ => self.end_value(c),
            },
            State::Dot => {
                if c.is_ascii_digit() {
                    self.state = State::Dot0;
                    Ok(())
                } else {
                    Err(invalid(c, "after decimal point in numeric literal"))
                }
            }
            State::Dot0 => match c {
                b'0'..=b'9' => Ok(()),
                b'e' | b'E' => {
                    self.state = State::E;
                    Ok(())
                }
                _ => self.end_value(c),
            },
            State::E if c == b'+' || c == b'-' => {
                self.state = State::ESign;
                Ok(())
            }
            State::E | State::ESign => {
                if c.is_ascii_digit() {
                    self.state = State::E0;
                    Ok(())
                } else {
                    Err(invalid(c, "in exponent of numeric literal"))
                }
            }
            State::E0 => {
                if c.is_ascii_digit() {
                    Ok(())
                } else {
                    self.end_value(c)
                }
            }
            State::Literal(word, n) => {
                let expect = word[usize::from(n)];
                if c != expect {
                    let name = std::str::from_utf8(word).unwrap_or("literal");
                    return Err(invalid(c, &format!("in literal {name} (expecting {})", quote_char(expect))));
                }
                self.state = if usize::from(n) + 1 == word.len() { State::EndValue } else { State::Literal(word, n + 1) };
                Ok(())
            }
        }
    }

    fn begin_value(&mut self, c: u8) -> Step {
        self.state = match c {
            c if is_space(c) => return Ok(()),
            b'{' => return self.push(c, Container::ObjectKey, State::BeginStringOrEmpty),
            b'[' => return self.push(c, Container::ArrayValue, State::BeginValueOrEmpty),
            b'"' => State::InString,
            b'-' => State::Neg,
            b'0' => State::Zero,
            b'1'..=b'9' => State::One,
            b't' => State::Literal(b"true", 1),
            b'f' => State::Literal(b"false", 1),
            b'n' => State::Literal(b"null", 1),
            _ => return Err(invalid(c, "looking for beginning of value")),
        };
        Ok(())
    }

    fn begin_string(&mut self, c: u8) -> Step {
        match c {
            c if is_space(c) => Ok(()),
            b'"' => {
                self.state = State::InString;
                Ok(())
            }
            _ => Err(invalid(c, "looking for beginning of object key string")),
        }
    }

    fn end_value(&mut self, c: u8) -> Step {
        let Some(&top) = self.stack.last() else {
            self.end_top = true;
            return self.end_top(c);
        };
        if is_space(c) {
            self.state = State::EndValue;
            return Ok(());
        }
        match (top, c) {
            (Container::ObjectKey, b':') => {
                if let Some(t) = self.stack.last_mut() {
                    *t = Container::ObjectValue;
                }
                self.state = State::BeginValue;
                Ok(())
            }
            (Container::ObjectKey, _) => Err(invalid(c, "after object key")),
            (Container::ObjectValue, b',') => {
                if let Some(t) = self.stack.last_mut() {
                    *t = Container::ObjectKey;
                }
                self.state = State::BeginString;
                Ok(())
            }
            (Container::ObjectValue, b'}') | (Container::ArrayValue, b']') => {
                self.pop();
                Ok(())
            }
            (Container::ObjectValue, _) => Err(invalid(c, "after object key:value pair")),
            (Container::ArrayValue, b',') => {
                self.state = State::BeginValue;
                Ok(())
            }
            (Container::ArrayValue, _) => Err(invalid(c, "after array element")),
        }
    }

    fn end_top(&mut self, c: u8) -> Step {
        self.state = State::EndTop;
        if is_space(c) { Ok(()) } else { Err(invalid(c, "after top-level value")) }
    }
}

/// scanner.go `checkValid`: is `data` exactly one JSON value with optional
/// surrounding whitespace? The error is Go's `*SyntaxError`.
pub fn check_valid(data: &[u8]) -> Result<(), GoJsonError> {
    let mut s = Scanner { state: State::BeginValue, stack: Vec::new(), end_top: false, bytes: 0 };
    for &c in data {
        s.bytes += 1;
        if let Err(msg) = s.step(c) {
            return Err(GoJsonError::SyntaxError { offset: s.bytes as u64, msg });
        }
    }
    // scanner.go `eof`: flush with a space; an error it provokes wins.
    if s.end_top {
        return Ok(());
    }
    if let Err(msg) = s.step(b' ') {
        return Err(GoJsonError::SyntaxError { offset: s.bytes as u64, msg });
    }
    if s.end_top {
        return Ok(());
    }
    Err(GoJsonError::SyntaxError { offset: s.bytes as u64, msg: "unexpected end of JSON input".into() })
}

/// Where the first JSON value in `data` ends (leading whitespace skipped),
/// as Go's scanner finds it: the offset just past the value, whatever
/// follows it. A container ends on its closing byte; a number or literal
/// ends where the next byte (or the end of input) stops it. The error is
/// Go's `*SyntaxError` for the value itself, `exceeded max depth` included.
pub fn first_value_end(data: &[u8]) -> Result<usize, GoJsonError> {
    let mut s = Scanner { state: State::BeginValue, stack: Vec::new(), end_top: false, bytes: 0 };
    for &c in data {
        s.bytes += 1;
        let step = s.step(c);
        if s.end_top {
            let closed_here = step.is_ok() && matches!(c, b']' | b'}');
            return Ok(if closed_here { s.bytes } else { s.bytes - 1 });
        }
        step.map_err(|msg| GoJsonError::SyntaxError { offset: s.bytes as u64, msg })?;
    }
    if s.step(b' ').is_ok() && s.end_top {
        return Ok(data.len());
    }
    Err(GoJsonError::SyntaxError { offset: data.len() as u64, msg: "unexpected end of JSON input".into() })
}

/// scanner.go `quoteChar`: the byte as a Go character literal. Go converts
/// the byte to the rune of the same value (so 0xEF prints as 'ï') and quotes
/// it with `strconv.Quote`, which escapes non-printable runes.
pub fn quote_char(c: u8) -> String {
    match c {
        b'\'' => return "'\\''".into(),
        b'"' => return "'\"'".into(),
        _ => {}
    }
    let inner = match c {
        0x07 => "\\a".to_string(),
        0x08 => "\\b".to_string(),
        0x0c => "\\f".to_string(),
        b'\n' => "\\n".to_string(),
        b'\r' => "\\r".to_string(),
        b'\t' => "\\t".to_string(),
        0x0b => "\\v".to_string(),
        b'\\' => "\\\\".to_string(),
        c if c < 0x20 || c == 0x7f => format!("\\x{c:02x}"),
        // U+0080..U+00A0 and the soft hyphen U+00AD are not printable for
        // strconv.IsPrint; the rest of Latin-1 is.
        c if (0x80..=0xa0).contains(&c) || c == 0xad => format!("\\u{:04x}", u32::from(c)),
        c => char::from(c).to_string(),
    };
    format!("'{inner}'")
}
