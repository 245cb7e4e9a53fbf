//! Every descendant of a plugin, including the ones that left its process
//! group: a child in a new session (`setsid sleep 300 &`), a new process
//! group, or a double-forked daemon.
//!
//! Signalling the plugin's group reaches none of those. So the CLI makes
//! proctor a child subreaper ([`become_subreaper`]): a descendant whose
//! parent exits is re-parented to proctor instead of init, where proctor can
//! still find it. At the end of a plugin, [`escaped`] lists what is alive
//! outside the group (the plugin's process tree read from `/proc`, plus
//! orphans proctor has adopted), and [`kill_and_reap`] ends them; the
//! report names each one. Linux only; elsewhere the lists are empty and the
//! process group is all proctor can reach.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, WaitOptions, getpid, kill_process, set_child_subreaper, waitpid};

static SUBREAPER: AtomicBool = AtomicBool::new(false);

/// Makes this process the subreaper of everything it starts (Linux
/// `PR_SET_CHILD_SUBREAPER`). Only the CLI does this: a library caller (a
/// test binary, say) has children of its own that are not plugins.
pub fn become_subreaper() -> bool {
    let ok = set_child_subreaper(Some(getpid())).is_ok();
    SUBREAPER.store(ok, Ordering::SeqCst);
    let _ = inherited();
    ok
}

/// The children proctor had before it started anything: a shell that execs
/// proctor as its last command leaves it the shell's own children (the
/// `cat` of a process substitution `--output >(cat > r)`, a `tee`). They
/// are the user's, not escaped plugins: never counted, never killed.
fn inherited() -> &'static [i32] {
    static INHERITED: std::sync::OnceLock<Vec<i32>> = std::sync::OnceLock::new();
    INHERITED.get_or_init(|| {
        let me = getpid().as_raw_nonzero().get();
        table(&[me]).iter().filter(|p| p.ppid == me).map(|p| p.pid).collect()
    })
}

/// `procs` without the processes proctor inherited and what runs under them.
fn without_inherited(table: &[Proc], procs: Vec<Proc>) -> Vec<Proc> {
    let theirs: Vec<i32> =
        inherited().iter().flat_map(|&pid| std::iter::once(pid).chain(descendants(table, pid).into_iter().map(|p| p.pid))).collect();
    procs.into_iter().filter(|p| !theirs.contains(&p.pid)).collect()
}

/// One process, as `/proc/PID/stat` and `cmdline` describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proc {
    /// Its pid.
    pub pid: i32,
    /// Its parent.
    pub ppid: i32,
    /// Its process group.
    pub pgid: i32,
    /// Its session.
    pub sid: i32,
    /// Its command line, for reports.
    pub cmdline: String,
}

impl Proc {
    /// "pid 4242 `sleep 300` (in a new session)" for a report.
    pub fn describe(&self, plugin_group: i32) -> String {
        let how = if self.sid == self.pid {
            "in a new session"
        } else if self.pgid != plugin_group {
            "in another process group"
        } else {
            "left behind when its parent exited"
        };
        format!("pid {} `{}` ({how})", self.pid, self.cmdline)
    }
}

/// Every live (not zombie) process in the trees under `roots`, read from the
/// kernel's per-thread `children` lists, or every process on the machine
/// where the kernel has no such list. Both views hold whole subtrees, which
/// is all [`descendants`] needs; the first costs the size of proctor's own
/// tree instead of the machine's at every plugin's shutdown.
fn table(roots: &[i32]) -> Vec<Proc> {
    match subtree_pids(roots) {
        Some(pids) => procs(pids.into_iter()),
        None => {
            let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
            procs(dir.flatten().filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok()))
        }
    }
}

/// Whether this kernel lists a thread's children (`CONFIG_PROC_CHILDREN`).
fn kernel_lists_children() -> bool {
    static LISTS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *LISTS.get_or_init(|| std::path::Path::new("/proc/thread-self/children").exists())
}

/// `roots` and every process under them, or `None` when the kernel cannot say.
/// A child is listed under the thread that forked it (or adopted it), so every
/// thread's list is read. A root that is gone has no list: nothing under it.
/// The kernel calls the lists exact only for stopped children: one that forks
/// or is re-parented during the read may be missed, as it may be by a read of
/// the whole table. That is why shutdown reads the tree again once the leader
/// has ended (and also before killing one that would not end), and why an
/// interrupted proctor reads it once more before it exits.
fn subtree_pids(roots: &[i32]) -> Option<Vec<i32>> {
    if !kernel_lists_children() {
        return None;
    }
    let mut seen: Vec<i32> = Vec::new();
    let mut frontier: Vec<i32> = roots.to_vec();
    while let Some(pid) = frontier.pop() {
        if seen.contains(&pid) {
            continue;
        }
        seen.push(pid);
        let Ok(threads) = std::fs::read_dir(format!("/proc/{pid}/task")) else { continue };
        for thread in threads.flatten() {
            let list = std::fs::read_to_string(thread.path().join("children")).unwrap_or_default();
            frontier.extend(list.split_whitespace().filter_map(|c| c.parse::<i32>().ok()));
        }
    }
    Some(seen)
}

/// The processes `pids` as their `stat` files describe them, zombies left out.
fn procs(pids: impl Iterator<Item = i32>) -> Vec<Proc> {
    pids.filter_map(|pid| {
        let stat = read_stat(pid)?;
        // "pid (comm) state ppid pgrp session ...": comm may hold spaces and parens.
        let rest = &stat[stat.rfind(')')? + 2..];
        let mut fields = rest.split_whitespace();
        let state = fields.next()?;
        if state == "Z" || state == "X" {
            return None;
        }
        let (ppid, pgid, sid) = (fields.next()?.parse().ok()?, fields.next()?.parse().ok()?, fields.next()?.parse().ok()?);
        Some(Proc { pid, ppid, pgid, sid, cmdline: String::new() })
    })
    .collect()
}

/// `/proc/PID/stat` in one `read` where it fits (it almost always does): the
/// scan reads one per process on the machine at every plugin's shutdown, and
/// `read_to_string`'s growing probe reads took five system calls for each.
fn read_stat(pid: i32) -> Option<String> {
    use std::io::Read;
    let mut file = std::fs::File::open(format!("/proc/{pid}/stat")).ok()?;
    let mut buf = [0u8; 1024];
    let n = file.read(&mut buf).ok()?;
    if n < buf.len() {
        return String::from_utf8(buf[..n].to_vec()).ok();
    }
    let mut rest = String::from_utf8(buf.to_vec()).ok()?;
    file.read_to_string(&mut rest).ok()?;
    Some(rest)
}

/// `procs` with their command lines, read only for the processes reported: the
/// scan runs at every plugin's shutdown, and one file per process is enough to
/// find them (it was a one-shot invocation's largest cost).
fn with_cmdlines(mut procs: Vec<Proc>) -> Vec<Proc> {
    for p in &mut procs {
        let raw = std::fs::read(format!("/proc/{}/cmdline", p.pid)).unwrap_or_default();
        p.cmdline = String::from_utf8_lossy(&raw).split('\0').filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" ");
    }
    procs
}

/// The processes descended from `root` (not `root` itself).
fn descendants(table: &[Proc], root: i32) -> Vec<Proc> {
    let mut out: Vec<Proc> = Vec::new();
    let mut frontier = vec![root];
    while let Some(parent) = frontier.pop() {
        for p in table.iter().filter(|p| p.ppid == parent && p.pid != root) {
            if !out.iter().any(|o| o.pid == p.pid) {
                frontier.push(p.pid);
                out.push(p.clone());
            }
        }
    }
    out
}

/// What of `leader`'s (a plugin process group leader) descendants lives
/// outside its group, plus the orphans proctor adopted as subreaper that are
/// not a running plugin of its own.
pub fn escaped(leader: i32) -> Vec<Proc> {
    // Under the spawn gate: every child proctor spawned is registered by now.
    let _gate = super::reaper::gate();
    let plugins = super::reaper::live();
    let me = getpid().as_raw_nonzero().get();
    let table = table(&[leader, me]);
    let mut out: Vec<Proc> = descendants(&table, leader).into_iter().filter(|p| p.pgid != leader).collect();
    add_orphans(&table, me, leader, &plugins, &mut out);
    with_cmdlines(without_inherited(&table, out))
}

/// The orphans proctor adopted as subreaper that belong to no running
/// plugin, and what runs under them: what a run leaves behind once every
/// one of its plugins has ended. Exchanges that overlap (`--jobs`) scan at
/// their own shutdown, and a scan can miss a process the kernel re-parents
/// while it reads; this last look at the end of a run misses nothing that
/// is still alive.
pub fn adopted_orphans() -> Vec<Proc> {
    let _gate = super::reaper::gate();
    let plugins = super::reaper::live();
    let me = getpid().as_raw_nonzero().get();
    let table = table(&[me]);
    let mut out = Vec::new();
    add_orphans(&table, me, 0, &plugins, &mut out);
    with_cmdlines(without_inherited(&table, out))
}

/// Those of `procs` still running (not ended, not a zombie waiting to be reaped).
pub fn still_running(procs: &[Proc]) -> Vec<Proc> {
    let live = self::procs(procs.iter().map(|p| p.pid));
    procs.iter().filter(|p| live.iter().any(|l| l.pid == p.pid)).cloned().collect()
}

/// Ends `strays` (what [`adopted_orphans`] found) and describes each for a report.
pub fn end_adopted(strays: &[Proc]) -> Vec<String> {
    kill_and_reap(strays);
    strays.iter().map(|p| p.describe(0)).collect()
}

/// Adds the orphans proctor adopted (not `leader`, not a running plugin) and their descendants to `out`.
fn add_orphans(table: &[Proc], me: i32, leader: i32, plugins: &[i32], out: &mut Vec<Proc>) {
    if !SUBREAPER.load(Ordering::SeqCst) {
        return;
    }
    // An orphan still in a running plugin's group is that plugin's to end
    // (its group is signalled at its own shutdown), so it is left alone.
    for orphan in table.iter().filter(|p| p.ppid == me && p.pid != leader && !plugins.contains(&p.pid) && !plugins.contains(&p.pgid)) {
        for p in std::iter::once(orphan.clone()).chain(descendants(table, orphan.pid)) {
            if !out.iter().any(|o| o.pid == p.pid) {
                out.push(p);
            }
        }
    }
}

/// The live processes of the group `leader` leads: the leader and those of
/// its descendants still in its group.
pub(super) fn group_members(leader: i32) -> Vec<i32> {
    let table = table(&[leader]);
    let mut members: Vec<i32> = descendants(&table, leader).into_iter().filter(|p| p.pgid == leader).map(|p| p.pid).collect();
    if table.iter().any(|p| p.pid == leader) {
        members.insert(0, leader);
    }
    members
}

/// Whether a process that is not a zombie still lives in group `pgid`
/// among proctor's descendants (its plugin's children, and the orphans
/// proctor adopted from it). `kill(-pgid, 0)` also counts a zombie that is
/// only waiting to be reaped.
pub(super) fn group_has_live(pgid: i32) -> bool {
    // Without the subreaper, orphans go to init and out of sight: say yes, and let kill(0) decide.
    if !SUBREAPER.load(Ordering::SeqCst) {
        return true;
    }
    let me = getpid().as_raw_nonzero().get();
    let table = table(&[me]);
    descendants(&table, me).iter().any(|p| p.pgid == pgid)
}

/// Every live descendant of proctor but those it inherited: what an
/// interrupted proctor must end.
pub fn all_descendants() -> Vec<Proc> {
    let me = getpid().as_raw_nonzero().get();
    let table = table(&[me]);
    with_cmdlines(without_inherited(&table, descendants(&table, me)))
}

/// SIGKILLs `procs` and reaps the ones that are proctor's own children (the
/// adopted orphans), so no zombie is left either.
pub fn kill_and_reap(procs: &[Proc]) {
    for p in procs {
        if let Some(pid) = Pid::from_raw(p.pid) {
            let _ = kill_process(pid, Signal::KILL);
        }
    }
    let me = getpid().as_raw_nonzero().get();
    let deadline = Instant::now() + Duration::from_millis(500);
    for p in procs.iter().filter(|p| p.ppid == me) {
        let Some(pid) = Pid::from_raw(p.pid) else { continue };
        while Instant::now() < deadline {
            match waitpid(Some(pid), WaitOptions::NOHANG) {
                Ok(Some(_)) | Err(_) => break,
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            }
        }
    }
}
