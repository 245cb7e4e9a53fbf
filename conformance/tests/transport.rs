//! The process transport against real `sh` processes: bounded line reads,
//! one-shot collection, the termination ladder and leftover detection.

use std::time::{Duration, Instant};

use proctor_conformance::transport::{Deadlines, ExitOutcome, LineEnding, PluginCommand, PluginProcess, ReadEvent, ShutdownHow, reaper};

fn sh(script: &str) -> PluginCommand {
    PluginCommand::new(vec!["sh".into(), "-c".into(), script.into()]).unwrap()
}

fn quick() -> Deadlines {
    Deadlines {
        startup: Duration::from_secs(2),
        request: Duration::from_secs(2),
        shutdown: Duration::from_millis(500),
        kill_grace: Duration::from_millis(300),
        leak_window: Duration::from_millis(150),
        ..Deadlines::default()
    }
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

#[test]
fn lines_crlf_partial_and_eof() {
    rt().block_on(async {
        let mut p = PluginProcess::spawn(&sh("printf 'a\\r\\nb'; sleep 0.1; printf 'c\\nlast'"), quick()).unwrap();
        assert_eq!(p.stdout.next_line(Duration::from_secs(2)).await, ReadEvent::Line { bytes: b"a".to_vec(), ending: LineEnding::CrLf });
        assert_eq!(p.stdout.next_line(Duration::from_secs(2)).await, ReadEvent::Line { bytes: b"bc".to_vec(), ending: LineEnding::Lf });
        assert_eq!(p.stdout.next_line(Duration::from_secs(2)).await, ReadEvent::Eof { partial: b"last".to_vec() });
        let s = p.shutdown().await;
        assert_eq!(s.exit, ExitOutcome::Code(0));
        assert_eq!(s.how, ShutdownHow::ExitedByItself);
        assert_eq!(s.leftover, None);
    });
}

#[test]
fn a_line_over_the_cap_is_skipped_and_the_next_is_read() {
    rt().block_on(async {
        // 17 MiB without a newline, then a normal line: bounded memory, no desync.
        let script = "head -c 17825792 /dev/zero | tr '\\0' x; printf '\\nnext\\n'";
        let mut p = PluginProcess::spawn(&sh(script), quick()).unwrap();
        match p.stdout.next_line(Duration::from_secs(20)).await {
            ReadEvent::TooLong { len } => assert_eq!(len, 17825792),
            other => panic!("{other:?}"),
        }
        assert_eq!(p.stdout.next_line(Duration::from_secs(5)).await, ReadEvent::Line { bytes: b"next".to_vec(), ending: LineEnding::Lf });
        p.shutdown().await;
    });
}

#[test]
fn timeout_keeps_the_partial_line() {
    rt().block_on(async {
        let mut p = PluginProcess::spawn(&sh("printf '{\"id\":1}'; sleep 5"), quick()).unwrap();
        let start = Instant::now();
        assert_eq!(p.stdout.next_line(Duration::from_millis(300)).await, ReadEvent::Timeout { partial: b"{\"id\":1}".to_vec() });
        assert!(start.elapsed() < Duration::from_secs(2));
        let s = p.shutdown().await;
        assert_eq!(s.how, ShutdownHow::Terminated, "sleep dies on SIGTERM");
    });
}

#[test]
fn collect_answer_stops_at_exit_even_when_a_grandchild_holds_stdout() {
    rt().block_on(async {
        let mut p = PluginProcess::spawn(&sh("sleep 30 & printf '{\"result\":1}'; exit 0"), quick()).unwrap();
        p.close_stdin();
        let start = Instant::now();
        let c = p.collect_answer(Duration::from_secs(10), 1 << 20, |b| b.ends_with(b"}")).await;
        assert_eq!(c.bytes, b"{\"result\":1}");
        assert_eq!(c.exit, Some(ExitOutcome::Code(0)));
        assert!(!c.eof, "the grandchild still holds stdout");
        let s = p.shutdown().await;
        let leftover = s.leftover.expect("leftover detected");
        assert!(leftover.stdout_held_open && leftover.group_alive);
        assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    });
}

#[test]
fn sigterm_ignored_means_sigkill() {
    rt().block_on(async {
        let mut p = PluginProcess::spawn(&sh("trap '' TERM; while :; do sleep 0.05; done"), quick()).unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        p.close_stdin();
        let s = p.shutdown().await;
        assert_eq!(s.how, ShutdownHow::Killed);
        assert_eq!(s.exit, ExitOutcome::Signal(9));
    });
}

#[test]
fn stderr_is_drained_and_its_tail_kept() {
    rt().block_on(async {
        // 1 MiB of stderr would block a plugin whose stderr nobody reads.
        let mut p = PluginProcess::spawn(&sh("head -c 1048576 /dev/zero | tr '\\0' e >&2; echo tail >&2; echo done"), quick()).unwrap();
        assert_eq!(p.stdout.next_line(Duration::from_secs(5)).await, ReadEvent::Line { bytes: b"done".to_vec(), ending: LineEnding::Lf });
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(p.stderr().total() >= 1048576);
        assert!(p.stderr().text().ends_with("tail\n"));
        assert!(p.stderr().bytes().len() <= 8192);
        p.shutdown().await;
    });
}

#[test]
fn groups_are_registered_while_alive_and_killed_on_drop() {
    rt().block_on(async {
        let before = reaper::live_count();
        let p = PluginProcess::spawn(&sh("sleep 30"), quick()).unwrap();
        assert!(reaper::live_count() > before);
        drop(p);
        assert_eq!(reaper::live_count(), before);
    });
}

#[test]
fn spawn_errors_name_the_program() {
    let err =
        rt().block_on(async { PluginProcess::spawn(&PluginCommand::new(vec!["/no/such/plugin".into()]).unwrap(), quick()).unwrap_err() });
    assert!(err.to_string().contains("/no/such/plugin"), "{err}");
}
