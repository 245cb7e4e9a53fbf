//! Where reports go: the terminal (with colour when it is one), or the output
//! paths the user named, each checked before anything runs ([`Target`]) and
//! never one of the command's inputs ([`Outputs`]).

mod clobber;
mod target;

use std::io::{IsTerminal, Write};

pub(crate) use clobber::location;
pub use clobber::{Inputs, Outputs, refuse_clobbering};
pub use target::Target;

/// Whether stdout is a terminal that wants colour (honours NO_COLOR and CLICOLOR_FORCE).
pub fn stdout_wants_color() -> bool {
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return false;
    }
    if std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
        return true;
    }
    std::io::stdout().is_terminal()
}

/// Writes `text` to stdout. A reader that went away (`proctor checks | head`)
/// ends proctor quietly with 141, as a Unix tool killed by SIGPIPE would;
/// proctor itself ignores SIGPIPE so that a plugin closing its stdin is an
/// error it can report, never its own death.
pub fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(141),
        Err(e) => {
            eprintln!("error: cannot write to stdout: {e}");
            std::process::exit(2);
        }
    }
}

/// Writes a rendered report to its prepared `--output`, or to stdout without one.
pub fn deliver(output: Option<Target>, text: &str) -> anyhow::Result<()> {
    match output {
        Some(target) => target.write(text.as_bytes()),
        None => {
            emit(text);
            Ok(())
        }
    }
}
