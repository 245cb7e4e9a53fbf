//! Whether a silent plugin is waiting for input rather than working.
//!
//! Runtimes wait long: PicoClaw 60 s for an approval (and for `hook.hello`
//! without any bound), PromptKit 30 s for a server or an eval, the agents a
//! minute or ten. Waiting that long for every silent plugin would make a
//! certify run take minutes for the commonest mistake of all, a reply left in
//! a stdout buffer. But a plugin that has read the whole request and sits
//! blocked reading stdin again is not computing its answer: nothing will
//! come before the runtime sends more, and the runtime sends nothing more
//! until the answer. So once proctor's own patience is spent, it looks:
//! every thread of every process in the plugin's group blocked in a `read`
//! of stdin, a wait for a child, or a futex wait with no timeout means idle,
//! and the wait ends early, as the runtime's would end in a timeout. A
//! thread running, sleeping, polling or waiting with a timeout (Node's event
//! loop, Go's scheduler) means it may still answer, and proctor waits on.
//! Linux only (`/proc/PID/task/TID/syscall`); elsewhere nothing is idle.

use std::time::Duration;

/// How long proctor waits for an answer before it looks whether the plugin
/// is idle: its own documented deadline.
pub const PATIENCE: Duration = Duration::from_secs(5);

/// Whether every process in the group led by `leader` waits for input that
/// only the runtime would send (see the module documentation).
pub fn waiting_for_input(leader: i32) -> bool {
    #[cfg(target_os = "linux")]
    {
        let members = super::tree::group_members(leader);
        let mut reading = false;
        for pid in members {
            let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return false };
            for task in tasks.flatten() {
                let Ok(text) = std::fs::read_to_string(task.path().join("syscall")) else { return false };
                match Blocked::parse(&text) {
                    Some(Blocked::ReadingStdin) => reading = true,
                    Some(Blocked::Parked) => {}
                    None => return false,
                }
            }
        }
        reading
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = leader;
        false
    }
}

/// What a blocked thread waits for, when it waits for nothing but input.
#[derive(Debug, PartialEq, Eq)]
enum Blocked {
    /// `read`/`readv` on fd 0.
    ReadingStdin,
    /// Waiting for a child, or on a futex with no timeout: woken only by
    /// another thread or process of the plugin.
    Parked,
}

/// Linux system call numbers of the calls [`Blocked`] knows.
#[cfg(target_arch = "x86_64")]
mod nr {
    pub const READ: u64 = 0;
    pub const READV: u64 = 19;
    pub const WAIT4: u64 = 61;
    pub const FUTEX: u64 = 202;
    pub const WAITID: u64 = 247;
}
#[cfg(target_arch = "aarch64")]
mod nr {
    pub const READ: u64 = 63;
    pub const READV: u64 = 65;
    pub const WAIT4: u64 = 260;
    pub const FUTEX: u64 = 98;
    pub const WAITID: u64 = 95;
}
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
mod nr {
    // Unknown numbers: nothing matches, so nothing is idle.
    pub const READ: u64 = u64::MAX;
    pub const READV: u64 = u64::MAX;
    pub const WAIT4: u64 = u64::MAX;
    pub const FUTEX: u64 = u64::MAX;
    pub const WAITID: u64 = u64::MAX;
}

impl Blocked {
    /// Reads `/proc/PID/task/TID/syscall`: `NR ARG1 … ARG6 SP PC` while
    /// blocked in a call, `running`, or `-1 SP PC` when blocked elsewhere.
    fn parse(text: &str) -> Option<Blocked> {
        let mut words = text.split_whitespace();
        let number: u64 = words.next()?.parse().ok()?;
        let args: Vec<u64> = words.take(6).map(|w| u64::from_str_radix(w.trim_start_matches("0x"), 16)).collect::<Result<_, _>>().ok()?;
        let arg = |i: usize| args.get(i).copied();
        match number {
            nr::READ | nr::READV if arg(0)? == 0 => Some(Blocked::ReadingStdin),
            nr::WAIT4 | nr::WAITID => Some(Blocked::Parked),
            // FUTEX_WAIT (0) or FUTEX_WAIT_BITSET (9), private or not, with no timeout.
            nr::FUTEX if matches!(arg(1)? & 0x7f, 0 | 9) && arg(3)? == 0 => Some(Blocked::Parked),
            _ => None,
        }
    }
}

#[cfg(all(test, target_os = "linux", target_arch = "x86_64"))]
mod tests {
    use super::*;

    #[test]
    fn reads_what_a_thread_waits_for() {
        assert_eq!(Blocked::parse("0 0x0 0x561db0a0cd00 0x2000 0x7f5 0x0 0x0 0x7ffcd 0x7f56"), Some(Blocked::ReadingStdin));
        assert_eq!(Blocked::parse("0 0x3 0x561db0a0cd00 0x2000 0x7f5 0x0 0x0 0x7ffcd 0x7f56"), None, "another fd");
        assert_eq!(Blocked::parse("202 0x7f 0x80 0x0 0x0 0x0 0xffffffff 0x7ff 0x7f"), Some(Blocked::Parked));
        assert_eq!(Blocked::parse("202 0x7f 0x80 0x0 0x7ffd000 0x0 0x0 0x7ff 0x7f"), None, "a timed wait may wake by itself");
        assert_eq!(Blocked::parse("230 0x1 0x0 0x7ffd 0x0 0x0 0x0 0x7ff 0x7f"), None, "sleeping is working");
        assert_eq!(Blocked::parse("running"), None);
        assert_eq!(Blocked::parse("-1 0x7ffd 0x7f"), None);
    }

    #[test]
    fn a_process_blocked_on_its_stdin_is_idle_and_a_sleeping_one_is_not() {
        use std::os::unix::process::CommandExt;
        use std::process::{Command, Stdio};
        let mut reader = Command::new("sh").args(["-c", "read x"]).stdin(Stdio::piped()).process_group(0).spawn().unwrap();
        let mut sleeper = Command::new("sh").args(["-c", "sleep 5"]).stdin(Stdio::piped()).process_group(0).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(300));
        assert!(waiting_for_input(reader.id() as i32));
        assert!(!waiting_for_input(sleeper.id() as i32));
        for child in [&mut reader, &mut sleeper] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
