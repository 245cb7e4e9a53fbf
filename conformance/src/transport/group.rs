//! The plugin's process group: the only place a group is signalled.

use rustix::process::{Pid, Signal, kill_process_group, test_kill_process_group};

use super::reaper;

/// A live process group. Dropping it SIGKILLs every member, so a panic or a
/// cancelled future never leaves plugin processes behind.
#[derive(Debug)]
pub(crate) struct ProcessGroup {
    pgid: Pid,
    released: bool,
}

impl ProcessGroup {
    /// Takes charge of the group led by `pid` (spawned with `process_group(0)`).
    pub(crate) fn adopt(pid: u32) -> Option<Self> {
        let pgid = Pid::from_raw(i32::try_from(pid).ok()?)?;
        reaper::register(pgid.as_raw_nonzero().get());
        Some(ProcessGroup { pgid, released: false })
    }

    /// Sends SIGTERM to every member.
    pub(crate) fn terminate(&self) {
        let _ = kill_process_group(self.pgid, Signal::TERM);
    }

    /// Sends SIGKILL to every member.
    pub(crate) fn kill(&self) {
        let _ = kill_process_group(self.pgid, Signal::KILL);
    }

    /// Whether any member is still alive (the leader may be a zombie until reaped).
    pub(crate) fn any_alive(&self) -> bool {
        test_kill_process_group(self.pgid).is_ok()
    }

    /// The group's id, which is its leader's pid.
    pub(crate) fn leader(&self) -> i32 {
        self.pgid.as_raw_nonzero().get()
    }

    /// Kills what is left and forgets the group.
    pub(crate) fn release(mut self) {
        self.kill();
        reaper::unregister(self.pgid.as_raw_nonzero().get());
        self.released = true;
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        if !self.released {
            let leader = self.pgid.as_raw_nonzero().get();
            // Read the tree before the kill re-parents it, then end it all.
            let escaped = super::tree::escaped(leader);
            self.kill();
            super::tree::kill_and_reap(&escaped);
            reaper::unregister(leader);
        }
    }
}
