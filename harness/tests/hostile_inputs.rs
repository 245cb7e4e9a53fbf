//! The hostile-input sweep as a table: every command given broken, strange
//! or malicious inputs (FIFOs, devices, symlink loops, alias bombs, escape
//! sequences in names, absurd numbers, files that are each other) must answer
//! precisely. A user's own mistake is exit 2 naming the file (and its
//! line:column where one applies); a plugin's real fault is exit 1; never a
//! panic, never a hang, never exit 0 having judged nothing, never library
//! internals or raw control bytes on the terminal, never a process left behind.
//!
//! Each row runs its `setup` with `sh -c` in a fresh temp dir (`$D`, also the
//! setup's cwd; `$R` is the repo root, `$P` the proctor binary), then runs
//! proctor with the row's arguments (`$D` and `$P` substituted) from the repo
//! root, stdin from the row or /dev/null, under a hard 20 s limit. A row may
//! send proctor a signal once a condition holds (its plugins are up, it
//! holds a file open, it printed a line); a run ended by signal N counts as
//! exit 128 + N. Every failing row is collected and reported together at
//! the end.

mod common;

use std::io::{Read, Seek, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use Trigger::{Marked, Opened, Printed};
use common::{marked, proctor, repo_root};
use rustix::process::Signal;

const INT: Signal = Signal::INT;
const TERM: Signal = Signal::TERM;
const HUP: Signal = Signal::HUP;
const QUIT: Signal = Signal::QUIT;
const KILL: Signal = Signal::KILL;

/// Hard limit for one row (and for its setup).
const LIMIT: Duration = Duration::from_secs(20);

/// Text that is never right in proctor's output: library internals, a panic,
/// an allocation failure, an empty profile list.
const NEVER: &[&str] =
    &["DuplicateKeyPolicy", "budget breached", "<input>", "panicked at", "memory allocation of", "RUST_BACKTRACE", "checked under ;"];

#[derive(Clone, Copy)]
enum Input {
    Null,
    Bytes(&'static [u8]),
    File(&'static str),
}

#[derive(Clone, Copy)]
struct Row {
    name: &'static str,
    /// Run with `sh -c` in the row's temp dir before the command.
    setup: &'static str,
    /// proctor's arguments; `$D` is the temp dir, `$P` the proctor binary.
    args: &'static [&'static str],
    stdin: Input,
    exit: i32,
    /// A second acceptable exit code, where the findings allow either.
    or_exit: Option<i32>,
    /// Must appear in stdout+stderr (`$D` substituted).
    phrase: &'static str,
    /// Must not appear in stdout+stderr.
    absent: &'static str,
    /// The inputs carry ESC / U+202E in a name: the output must not.
    esc: bool,
    /// Run under `ulimit -v 4000000` (reads a device or an endless stream).
    mem: bool,
    /// Run with `sh -c` in the temp dir after the command; must exit 0 (the
    /// device is still a device, the input still holds what it held).
    after: &'static str,
    /// `$D/bin` is put first on the command's PATH.
    bin_on_path: bool,
    /// Send proctor this signal once the trigger holds.
    signal: Option<(rustix::process::Signal, Trigger)>,
}

/// When a row's signal is sent.
#[derive(Clone, Copy)]
enum Trigger {
    /// At least this many processes carry the row's marker (proctor counts as one).
    Marked(usize),
    /// proctor holds `$D/<name>` open.
    Opened(&'static str),
    /// proctor's output holds this text.
    Printed(&'static str),
}

const fn row(name: &'static str, setup: &'static str, args: &'static [&'static str], exit: i32, phrase: &'static str) -> Row {
    Row {
        name,
        setup,
        args,
        stdin: Input::Null,
        exit,
        or_exit: None,
        phrase,
        absent: "",
        esc: false,
        mem: false,
        after: "",
        bin_on_path: false,
        signal: None,
    }
}

impl Row {
    const fn stdin(mut self, bytes: &'static [u8]) -> Row {
        self.stdin = Input::Bytes(bytes);
        self
    }
    const fn stdin_file(mut self, path: &'static str) -> Row {
        self.stdin = Input::File(path);
        self
    }
    const fn or_exit(mut self, code: i32) -> Row {
        self.or_exit = Some(code);
        self
    }
    const fn absent(mut self, text: &'static str) -> Row {
        self.absent = text;
        self
    }
    const fn esc(mut self) -> Row {
        self.esc = true;
        self
    }
    const fn mem(mut self) -> Row {
        self.mem = true;
        self
    }
    const fn after(mut self, check: &'static str) -> Row {
        self.after = check;
        self
    }
    const fn bin_on_path(mut self) -> Row {
        self.bin_on_path = true;
        self
    }
    const fn signal(mut self, signal: rustix::process::Signal, when: Trigger) -> Row {
        self.signal = Some((signal, when));
        self
    }
}

/// Shell functions every setup can use.
const PRELUDE: &str = r#"set -e
# scenario ID DECISION [EXPECT]: a runok scenario with one mock plugin `g`
scenario() {
  printf 'id: t/%s\nruntime: runok\nplugins:\n  - {name: g, process: {mock: {decision: %s}}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\n%b' "$1" "$2" "${3:-}"
}
# laughs INDENT seq|map: a billion-laughs alias bomb as list items or map entries
laughs() {
  if [ "$2" = seq ]; then k='- '; else k='k0: '; fi
  printf '%s%s&a [x,x,x,x,x,x,x,x,x,x]\n' "$1" "$k"; p=a
  for n in b c d e f g h i j; do
    [ "$2" = seq ] || k="k$n: "
    printf '%s%s&%s [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n' "$1" "$k" $n $p $p $p $p $p $p $p $p $p $p; p=$n
  done
}
rc_head() { printf 'apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: RuntimeConfig\nmetadata:\n  name: development\n'; }
garbage() { printf '\377\376\000garbage\200\201\n' > "${1:-garbage.bin}"; }
guard() { cp "$R/examples/runok-extension/env_guard.sh" "${1:-guard.sh}"; }
# certified: guard.sh and cert.json, its certificate
certified() { guard; "$P" certify --protocol runok-extension --no-progress --certificate cert.json -- sh "$D/guard.sh" >/dev/null 2>&1; }
# recorded: s.yaml and rec/g.jsonl, the record of a run of it
recorded() { scenario good deny 'expect: {outcome: deny}\n' > s.yaml; "$P" run --no-progress --record-dir rec s.yaml >/dev/null; }
# node NAME: a character device like /dev/null, made here (never the system's own)
node() { mknod "$1" c 1 3; }
# blk NAME: a block device node (loop device 200), made here and never opened
blk() { mknod "$1" b 7 200; }
# sock NAME: a listening-less Unix socket
sock() { python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$1"; }
# reader FIFO OUT: a FIFO with a reader copying it to OUT
reader() { mkfifo "$1"; cat "$1" > "$2" & sleep 0.3; }
# eventually COMMAND...: true once COMMAND is (a background reader may still be writing)
eventually() { for _ in 1 2 3 4 5 6 7 8 9 10; do if "$@"; then return 0; fi; sleep 0.2; done; "$@"; }
# eval_rc [ARGS...]: rc.yaml binding the mock as an eval (ARGS: extra binding lines)
eval_rc() { rc_head; printf 'spec:\n  evals:\n    tone_check:\n      command: %s\n      args: [mock-plugin, --protocol, promptkit-exec, --role, eval]\n' "$P"; }
# tool_rc SCRIPT: rc.yaml binding SCRIPT (a copy of the runok guard, so any answer) as an exec tool run with sh
tool_rc() { rc_head; printf 'spec:\n  tools:\n    t:\n      exec:\n        command: sh\n        args: [./%s]\n' "$1"; }
# hung_scenario: a runok scenario whose mock plugin never answers (within a minute)
hung_scenario() {
  printf 'id: t/hung\nruntime: runok\nplugins:\n  - {name: g, process: {mock: {decision: allow, faults: [hang]}}, config: {runok_extension: {timeout_ms: 60000}}}\nturns:\n  - command: {raw: ls}\nexpect: {outcome: ask}\n'
}
# hung_runtime_config: a RuntimeConfig binding one exec tool that never answers
hung_runtime_config() {
  rc_head; printf 'spec:\n  tools:\n    t:\n      exec:\n        command: %s\n        args: [mock-plugin, --protocol, promptkit-exec, --role, tool, --fault, hang]\n        timeout_ms: 60000\n' "$P"
}
# bigpack: big.pack.json, whose triage prompt repeats {{company}} 200,000 times (1.2 MB), and vars.yaml giving it 100 KB
bigpack() {
  python3 - "$R" <<'PY'
import json, sys
p = json.load(open(sys.argv[1] + "/examples/promptpack/support.pack.json"))
p["prompts"]["triage"]["system_template"] = "{{company}}" * 200000
json.dump(p, open("big.pack.json", "w"))
open("vars.yaml", "w").write("company: " + "x" * 100000 + "\n")
PY
}
# big_scenario: a PromptKit scenario running big.pack.json's triage prompt with the 100 KB company
big_scenario() {
  printf 'id: t/big\nruntime: promptkit\npack: big.pack.json\nprompt: triage\nvariables: {company: %s}\nllm:\n  - reply: {text: hi}\nturns:\n  - user: hi\nexpect: {outcome: completed}\n' "$(head -c 100000 /dev/zero | tr '\0' x)"
}
# error_script: a long-lived mock script answering every line with a JSON-RPC error
error_script() {
  cat <<'JSON'
{"on": {"*": {"write": "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"error\":{\"code\":-32000,\"message\":\"refused\"}}\n"}}}
JSON
}
"#;

const ENV_GUARD: &str = "examples/runok-extension/env_guard.sh";
const RUNOK_REQUEST: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"validateCommand","params":{"command":"ls"}}"#;
const SUPPORT_PACK: &[u8] = include_bytes!("../../examples/promptpack/support.pack.json");
const SUPPORT: &str = "examples/promptpack/support.pack.json";
const TIMEOUT_SCENARIO: &str = "scenarios/runok/timeout-falls-back-to-ask.yaml";
const PICO_SCENARIO: &str = "scenarios/picoclaw/abort-turn-ends-with-error.yaml";

#[rustfmt::skip]
const ROWS: &[Row] = &[
    // ---------------------------------------------------------------- top level
    row("cli: unknown subcommand", "", &["frobnicate"], 2, "unrecognized subcommand 'frobnicate'"),
    // ---------------------------------------------------------------- certify: common flags (runok-extension)
    row("certify: no arguments", "", &["certify"], 2, "the following required arguments were not provided"),
    row("certify: unknown protocol", "", &["certify", "--protocol", "nope", "--", "true"], 2, "unknown protocol `nope`; expected one of"),
    row("certify: protocol given twice", "", &["certify", "--protocol", "runok-extension", "--protocol", "picoclaw-hook", "--", "sh", ENV_GUARD], 2, "cannot be used multiple times"),
    row("certify: no plugin command", "", &["certify", "--protocol", "runok-extension"], 2, "the following required arguments were not provided"),
    row("certify: empty plugin command", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", ""], 2, "the plugin command after `--` is empty"),
    row("certify: missing plugin", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "$D/no-such-plugin"], 2, "cannot start `$D/no-such-plugin`: No such file or directory"),
    row("certify: plugin not on PATH", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "no-such-command-xyz"], 2, "cannot start `no-such-command-xyz`"),
    row("certify: plugin not executable", r#"printf 'print(1)\n' > notexec.py; chmod 644 notexec.py"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--", "$D/notexec.py"], 2, "Permission denied"),
    row("certify: python3 with a missing script", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "python3", "-u", "$D/none.py"], 2, "`python3` would run $D/none.py, which does not exist"),
    row("certify: sh with a missing script", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "sh", "$D/none.sh"], 2, "`sh` would run $D/none.sh, which does not exist"),
    // BUG 13/51: the script after `sh` is a directory: the plugin is blamed (exit 1).
    row("certify: sh with a directory as its script", r#"mkdir plugin.d"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--", "sh", "$D/plugin.d"], 2, "plugin.d"),
    // BUG 304: `sh ''`: the plugin is blamed (exit 1).
    row("certify: sh with an empty script path", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "sh", ""], 2, "`sh`"),
    // BUG 306: the missing script is not seen through `env`.
    row("certify: env python3 with a missing script", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "env", "python3", "$D/none.py"], 2, "none.py"),
    row("certify: --timeout-ms 0", "", &["certify", "--protocol", "runok-extension", "--timeout-ms", "0", "--", "sh", ENV_GUARD], 2, "--timeout-ms must be at least 1"),
    row("certify: --timeout-ms negative", "", &["certify", "--protocol", "runok-extension", "--timeout-ms", "-5", "--", "sh", ENV_GUARD], 2, "unexpected argument '-5' found"),
    row("certify: --timeout-ms above u64", "", &["certify", "--protocol", "runok-extension", "--timeout-ms", "99999999999999999999", "--", "sh", ENV_GUARD], 2, "number too large to fit in target type"),
    row("certify: --timeout-ms u64::MAX does not overflow", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--timeout-ms", "18446744073709551615", "--", "$P", "mock-plugin", "--protocol", "runok-extension"], 0, "conformant"),
    row("certify: --check matching nothing", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--check", "NOPE-*", "--", "sh", ENV_GUARD], 2, "--check/--skip-check NOPE-*: matches no check"),
    row("certify: --skip-check everything", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--skip-check", "*", "--", "sh", ENV_GUARD], 2, "nothing would be judged"),
    row("certify: unknown --profile", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--profile", "bogus", "--", "sh", ENV_GUARD], 2, "unknown profile `bogus`"),
    row("certify: runok has no role `tool`", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--role", "tool", "--", "sh", ENV_GUARD], 2, "unknown role `tool`; expected one of: guard"),
    row("certify: --require for a family without capabilities", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--require", "pending", "--", "sh", ENV_GUARD], 2, "has no capability to require"),
    row("certify: --env without =", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--env", "NOEQUALS", "--", "sh", ENV_GUARD], 2, "`NOEQUALS` is not NAME=VALUE"),
    row("certify: --cwd missing", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--cwd", "$D/nodir", "--", "sh", ENV_GUARD], 2, "--cwd $D/nodir: not a directory"),
    row("certify: --cwd is a file", r#"guard"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cwd", "$D/guard.sh", "--", "sh", "$D/guard.sh"], 2, "not a directory"),
    row("certify: --output in a missing folder", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--output", "$D/nodir/report.txt", "--", "sh", ENV_GUARD], 2, "nodir/"),
    row("certify: --output is a folder", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--output", "$D", "--", "sh", ENV_GUARD], 2, "--output $D: is a folder"),
    // BUG 48: the cases file is overwritten by the report, exit 0.
    row("certify: --output is the --cases file", r#"cp "$R/examples/runok-extension/env_guard.cases.yaml" c.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/c.yaml", "--output", "$D/c.yaml", "--", "sh", ENV_GUARD], 2, "c.yaml"),
    // BUG 276: the report is silently replaced by the badge.
    row("certify: --badge and --output are one file", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--badge", "$D/b2.json", "--output", "$D/b2.json", "--", "sh", ENV_GUARD], 2, "b2.json"),
    // BUG 278: the plugin script is overwritten by its own certificate.
    row("certify: --certificate is the plugin script", r#"guard victim.sh"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--certificate", "$D/victim.sh", "--", "sh", "$D/victim.sh"], 2, "victim.sh"),
    row("certify: a plugin's stderr escapes are escaped", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "sh", "-c", "printf '\\033[31mRED\\033]0;x\\007' >&2; exit 3"], 1, "\\u{1b}[31mRED").esc(),
    // BUG 150/151: raw ESC/OSC from the command or script name echoed.
    // Issue 30 (12, 13): every text format escapes what a plugin or the user's --env wrote.
    row("certify: markdown escapes a plugin's stderr", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--format", "markdown", "--", "sh", "-c", "printf '\\033[31mRED\\033]0;x\\007' >&2; exit 3"], 1, "\\u{1b}[31mRED").esc(),
    row("certify: markdown escapes a plugin's reply", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--format", "markdown", "--", "sh", "-c", "cat >/dev/null; printf '\\033]0;pwn\\007\\033[2J'"], 1, "\\u{1b}]0;pwn").esc(),
    row("certify: markdown escapes --env values", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--format", "markdown", "--env", "X=\x1b]0;pwn\x07\x1b[2J", "--", "sh", ENV_GUARD], 0, "\\u{1b}]0;pwn").or_exit(1).esc(),
    row("certify: junit escapes a plugin's stderr", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--format", "junit", "--", "sh", "-c", "printf '\\033[31mRED\\033]0;x\\007' >&2; exit 3"], 1, "stderr: RED").esc(),
    row("certify: junit escapes a plugin's reply", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--format", "junit", "--", "sh", "-c", "cat >/dev/null; printf '\\033]0;pwn\\007'"], 1, "\\u{1b}]0;pwn").esc(),
    row("certify: ESC in the command name", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "$D/\x1b]0;pwn\x07\x1b[2J"], 2, "cannot start").esc(),
    row("certify: ESC in the script name", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "sh", "$D/\x1b[31mred.sh"], 2, "red.sh").esc(),
    row("certify: ESC in a certified script's name", r#"guard "$(printf 'g\033]0;pwned\007\033[31mRED\342\200\256.sh')""#, &["certify", "--protocol", "runok-extension", "--no-progress", "--certificate", "$D/cert.json", "--", "sh", "$D/g\x1b]0;pwned\x07\x1b[31mRED\u{202e}.sh"], 0, "covers 2 file(s)").esc(),
    row("certify: a plugin's grandchild is found and killed", r#"cat > gc.sh <<'EOF'
setsid sleep 30 </dev/null >/dev/null 2>&1 &
sleep 31 &
cat >/dev/null
printf '{"jsonrpc":"2.0","id":1,"result":{"status":"allow"}}'
EOF"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--", "sh", "$D/gc.sh"], 1, "LIFECYCLE-NO-LEFTOVER"),
    row("certify: runok mock conformant", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "runok-extension"], 0, "conformant"),
    row("certify: runok mock fault is the plugin's", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "runok-extension", "--fault", "status-uppercase"], 1, "FAIL RUNOK-STATUS"),
    row("certify: runok plugin escaping its session", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "runok-extension", "--fault", "escape-session"], 1, "FAIL LIFECYCLE-NO-LEFTOVER"),
    // ---------------------------------------------------------------- certify --cases
    row("certify: --cases broken YAML", r#"printf 'cases:\n  - name: a\n    request: {command: curl\n    expect: {decision: deny}\n' > c.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/c.yaml", "--", "sh", ENV_GUARD], 2, "c.yaml:4:11"),
    // BUG 22: no file name, parser wording.
    row("certify: --cases empty", r#": > c.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/c.yaml", "--", "sh", ENV_GUARD], 2, "c.yaml"),
    // BUG 23/90: serde-saphyr's DuplicateKeyPolicy in the message (caught by NEVER).
    row("certify: --cases duplicate key", r#"printf 'cases:\n  - name: a\n    name: b\n    request: {command: curl}\n    expect: {decision: allow}\n' > c.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/c.yaml", "--", "sh", ENV_GUARD], 2, "c.yaml:3:5"),
    row("certify: --cases duplicate key (json)", r#"printf 'cases:\n  - name: a\n    name: b\n    request: {command: curl}\n    expect: {decision: allow}\n' > c.yaml"#, &["certify", "--protocol", "runok-extension", "--format", "json", "--no-progress", "--cases", "$D/c.yaml", "--", "sh", ENV_GUARD], 2, "c.yaml:3:5"),
    row("certify: --cases wrong type", r#"printf 'cases:\n  name: a\n' > c.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/c.yaml", "--", "sh", ENV_GUARD], 2, "c.yaml:2:3"),
    row("certify: --cases unknown key", r#"printf 'cases:\n  - name: a\n    requets: {command: curl}\n    expect: {decision: allow}\n' > c.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/c.yaml", "--", "sh", ENV_GUARD], 2, "unknown field `requets`"),
    row("certify: --cases impossible decision", r#"printf 'cases:\n  - name: a\n    request: {command: curl, flags: {}, args: [], raw_command_line: "curl", env: {}, cwd: /tmp}\n    expect: {decision: maybe}\n' > c.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/c.yaml", "--", "sh", ENV_GUARD], 2, "c.yaml:4:24: case `a`: decision `maybe` is not one this plugin can give"),
    row("certify: --cases empty list", r#"printf 'cases: []\n' > c.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/c.yaml", "--", "sh", ENV_GUARD], 2, "c.yaml:1:8: `cases:` is empty, so there is nothing to judge"),
    row("certify: --cases with a BOM", r#"printf '\357\273\277' > c.yaml; cat "$R/examples/runok-extension/env_guard.cases.yaml" >> c.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/c.yaml", "--", "sh", ENV_GUARD], 0, "conformant"),
    row("certify: --cases with CRLF", r#"sed 's/$/\r/' "$R/examples/runok-extension/env_guard.cases.yaml" > c.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/c.yaml", "--", "sh", ENV_GUARD], 0, "conformant"),
    row("certify: --cases not UTF-8", r#"garbage"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/garbage.bin", "--", "sh", ENV_GUARD], 2, "garbage.bin"),
    // BUG 34: "budget breached: Nodes { nodes: 250001 }" (caught by NEVER).
    row("certify: --cases alias bomb", r#"{ printf 'cases:\n  - name: bomb\n    request:\n      command: curl\n      flags: {}\n      raw_command_line: curl\n      env: {}\n      cwd: /tmp\n      args:\n'; laughs '        ' seq; printf '    expect: {decision: allow}\n'; } > c.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/c.yaml", "--", "sh", ENV_GUARD], 2, "c.yaml"),
    // BUG 33: "budget breached: Depth { depth: 65 }" (caught by NEVER).
    row("certify: --cases nested 5000 deep", r#"awk 'BEGIN{printf "cases:\n  - name: deep\n    request: "; for(i=0;i<5000;i++) printf "{a: "; printf "1"; for(i=0;i<5000;i++) printf "}"; printf "\n    expect: {decision: allow}\n"}' > c.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/c.yaml", "--", "sh", ENV_GUARD], 2, "c.yaml"),
    row("certify: --cases is a folder", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D", "--", "sh", ENV_GUARD], 2, "cases file $D: is a folder"),
    row("certify: --cases missing", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/none.yaml", "--", "sh", ENV_GUARD], 2, "none.yaml: cannot read: No such file or directory"),
    // ---------------------------------------------------------------- certify --baseline
    row("certify: stale --baseline entry fails the run", r#"printf 'expected_failures:\n  - {check: FRAMING-SINGLE-DOCUMENT, profile: documented, reason: "old bug"}\n' > b.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--baseline", "$D/b.yaml", "--", "sh", ENV_GUARD], 1, "stale baseline entry $D/b.yaml:2"),
    row("certify: --baseline unknown check", r#"printf 'expected_failures:\n  - {check: NO-SUCH-CHECK, profile: documented, reason: typo}\n' > b.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--baseline", "$D/b.yaml", "--", "sh", ENV_GUARD], 2, "b.yaml:2:5: no check `NO-SUCH-CHECK`"),
    row("certify: --baseline unknown profile", r#"printf 'expected_failures:\n  - {check: FRAMING-SINGLE-DOCUMENT, profile: nosuch, reason: typo}\n' > b.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--baseline", "$D/b.yaml", "--", "sh", ENV_GUARD], 2, "b.yaml:2:5: no profile `nosuch`"),
    row("certify: --baseline malformed", r#"printf 'expected_failures:\n  - check: FRAMING-SINGLE-DOCUMENT\n    profile: documented\n    reason: [not, a, string\n' > b.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--baseline", "$D/b.yaml", "--", "sh", ENV_GUARD], 2, "b.yaml:4:13"),
    row("certify: --baseline without reason", r#"printf 'expected_failures:\n  - {check: FRAMING-SINGLE-DOCUMENT, profile: documented}\n' > b.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--baseline", "$D/b.yaml", "--", "sh", ENV_GUARD], 2, "missing field `reason`"),
    // BUG 57: no file name, parser wording.
    row("certify: --baseline empty", r#": > b.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--baseline", "$D/b.yaml", "--", "sh", ENV_GUARD], 2, "b.yaml"),
    // ---------------------------------------------------------------- certify: picoclaw-hook
    row("certify picoclaw: mock conformant", "", &["certify", "--protocol", "picoclaw-hook", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook"], 0, "conformant"),
    row("certify picoclaw: mock fault is the plugin's", "", &["certify", "--protocol", "picoclaw-hook", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook", "--fault", "unknown-action"], 1, "FAIL PICOCLAW-ACTION"),
    row("certify picoclaw: a plugin that exits at once", "", &["certify", "--protocol", "picoclaw-hook", "--no-progress", "--timeout-ms", "18446744073709551615", "--", "true"], 1, "NONCONFORMANT"),
    row("certify picoclaw: missing plugin", "", &["certify", "--protocol", "picoclaw-hook", "--no-progress", "--", "$D/no-such-hook"], 2, "cannot start `$D/no-such-hook`"),
    row("certify picoclaw: unknown role in a list", "", &["certify", "--protocol", "picoclaw-hook", "--role", "observe,bogus", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook"], 2, "unknown role `bogus`; expected one of: observe, llm, tool, approve"),
    row("certify picoclaw: empty role list", "", &["certify", "--protocol", "picoclaw-hook", "--role", ",", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook"], 2, "--role lists no mode"),
    row("certify picoclaw: unknown --require", "", &["certify", "--protocol", "picoclaw-hook", "--no-progress", "--require", "telepathy", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook"], 2, "--require telepathy: not a capability of this plugin"),
    row("certify picoclaw: --cases method typo", r#"printf 'cases:\n  - name: typo in method\n    method: hook.before_tol\n    request: {tool: bash, arguments: {command: "rm -rf /"}}\n    expect: {decision: deny_tool}\n' > c.yaml"#, &["certify", "--protocol", "picoclaw-hook", "--no-progress", "--cases", "$D/c.yaml", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook"], 2, "c.yaml:3:13"),
    row("certify picoclaw: --cases for a mode not enabled", r#"printf 'cases:\n  - name: approve\n    method: hook.approve_tool\n    request: {tool: bash, arguments: {command: "sudo ls"}}\n    expect: {decision: deny}\n' > c.yaml"#, &["certify", "--protocol", "picoclaw-hook", "--role", "llm", "--no-progress", "--cases", "$D/c.yaml", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook"], 2, "c.yaml:3:13"),
    // ---------------------------------------------------------------- certify: promptkit-server
    row("certify server: mock conformant", "", &["certify", "--protocol", "promptkit-server", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-server"], 0, "conformant"),
    row("certify server: mock fault is the plugin's", "", &["certify", "--protocol", "promptkit-server", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-server", "--fault", "wrong-id"], 1, "FAIL JSONRPC-ID-ECHO"),
    row("certify server: no role `eval`", "", &["certify", "--protocol", "promptkit-server", "--no-progress", "--role", "eval", "--", "$P", "mock-plugin", "--protocol", "promptkit-server"], 2, "unknown role `eval`; expected one of: tool"),
    row("certify server: a plugin that exits at once", "", &["certify", "--protocol", "promptkit-server", "--role", "tool", "--timeout-ms", "18446744073709551615", "--no-progress", "--", "true"], 1, "NONCONFORMANT"),
    // ---------------------------------------------------------------- certify: promptkit-exec, every role
    row("certify exec: needs --role", "", &["certify", "--protocol", "promptkit-exec", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec"], 2, "promptkit-exec needs --role: one of tool, eval, provider-hook, tool-hook, session-hook, eval-hook, selector"),
    row("certify exec: unknown role", "", &["certify", "--protocol", "promptkit-exec", "--role", "toool", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec"], 2, "unknown role `toool`"),
    row("certify exec tool: mock conformant", "", &["certify", "--protocol", "promptkit-exec", "--role", "tool", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "tool"], 0, "conformant"),
    row("certify exec tool: mock fault is the plugin's", "", &["certify", "--protocol", "promptkit-exec", "--role", "tool", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "tool", "--fault", "tool-both"], 1, "FAIL TOOL-RESPONSE-SHAPE"),
    row("certify exec eval: mock conformant", "", &["certify", "--protocol", "promptkit-exec", "--role", "eval", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "eval"], 0, "conformant"),
    row("certify exec eval: mock fault is the plugin's", "", &["certify", "--protocol", "promptkit-exec", "--role", "eval", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "eval", "--fault", "score-out-of-range"], 1, "FAIL EVAL-SCORE"),
    row("certify exec provider-hook: mock conformant", "", &["certify", "--protocol", "promptkit-exec", "--role", "provider-hook", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "provider-hook"], 0, "conformant"),
    row("certify exec provider-hook: mock fault is the plugin's", "", &["certify", "--protocol", "promptkit-exec", "--role", "provider-hook", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "provider-hook", "--fault", "allow-string"], 1, "FAIL HOOK-ALLOW-BOOLEAN"),
    row("certify exec tool-hook: mock conformant", "", &["certify", "--protocol", "promptkit-exec", "--role", "tool-hook", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "tool-hook"], 0, "conformant"),
    row("certify exec tool-hook: mock fault is the plugin's", "", &["certify", "--protocol", "promptkit-exec", "--role", "tool-hook", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "tool-hook", "--fault", "allow-string"], 1, "FAIL HOOK-ALLOW-BOOLEAN"),
    row("certify exec session-hook: mock conformant", "", &["certify", "--protocol", "promptkit-exec", "--role", "session-hook", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "session-hook"], 0, "conformant"),
    row("certify exec session-hook: mock fault is the plugin's", "", &["certify", "--protocol", "promptkit-exec", "--role", "session-hook", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "session-hook", "--fault", "two-documents"], 1, "FAIL FRAMING-SINGLE-DOCUMENT"),
    row("certify exec eval-hook: mock conformant", "", &["certify", "--protocol", "promptkit-exec", "--role", "eval-hook", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "eval-hook"], 0, "conformant"),
    row("certify exec selector: mock conformant", "", &["certify", "--protocol", "promptkit-exec", "--role", "selector", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "selector"], 0, "conformant"),
    row("certify exec selector: mock fault is the plugin's", "", &["certify", "--protocol", "promptkit-exec", "--role", "selector", "--no-progress", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "selector", "--fault", "selector-unknown-id"], 1, "FAIL SELECTOR-KNOWN-IDS"),
    row("certify exec tool: --fuzz without --schema", "", &["certify", "--protocol", "promptkit-exec", "--role", "tool", "--no-progress", "--fuzz", "10", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "tool"], 2, "--fuzz needs --schema FILE"),
    row("certify exec tool: --schema without --fuzz", "", &["certify", "--protocol", "promptkit-exec", "--role", "tool", "--no-progress", "--schema", "examples/promptkit-exec/weather_tool.schema.json", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "tool"], 2, "--schema is only used with --fuzz N"),
    row("certify exec tool: --fuzz 0", "", &["certify", "--protocol", "promptkit-exec", "--role", "tool", "--no-progress", "--fuzz", "0", "--schema", "examples/promptkit-exec/weather_tool.schema.json", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "tool"], 2, "invalid value '0' for '--fuzz <N>'"),
    row("certify exec tool: --schema not UTF-8", r#"garbage"#, &["certify", "--protocol", "promptkit-exec", "--role", "tool", "--no-progress", "--fuzz", "3", "--schema", "$D/garbage.bin", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "tool"], 2, "garbage.bin"),
    row("certify exec tool: --fuzz with the mock", "", &["certify", "--protocol", "promptkit-exec", "--role", "tool", "--no-progress", "--fuzz", "3", "--schema", "examples/promptkit-exec/weather_tool.schema.json", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "tool"], 0, "fuzz: 3 generated inputs per profile"),
    row("certify runok: --fuzz has nothing to generate from", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--fuzz", "5", "--schema", "examples/promptkit-exec/weather_tool.schema.json", "--", "sh", ENV_GUARD], 2, "nothing to generate from"),
    // BUG 289/291: impossible case bounds blamed on the plugin (exit 1).
    row("certify exec eval: --cases impossible bounds", r#"printf 'cases:\n  - name: nonsense bounds\n    request: {type: tone, content: "hi"}\n    expect: {score_below: 0.2, score_at_least: 0.8}\n' > c.yaml"#, &["certify", "--protocol", "promptkit-exec", "--role", "eval", "--no-progress", "--cases", "$D/c.yaml", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "eval"], 2, "c.yaml"),
    row("certify exec eval: --cases NaN bound", r#"printf 'cases:\n  - name: eval nan bound\n    request: {type: tone, content: "hi"}\n    expect: {score_at_least: .nan}\n' > c.yaml"#, &["certify", "--protocol", "promptkit-exec", "--role", "eval", "--no-progress", "--cases", "$D/c.yaml", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "eval"], 2, "c.yaml"),
    row("certify exec eval: --cases with a decision", r#"printf 'cases:\n  - name: eval with a decision\n    request: {type: tone, content: "hi"}\n    expect: {decision: deny}\n' > c.yaml"#, &["certify", "--protocol", "promptkit-exec", "--role", "eval", "--no-progress", "--cases", "$D/c.yaml", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "eval"], 2, "c.yaml:4:24"),
    row("certify exec eval: --cases without expect", r#"printf 'cases:\n  - name: no expectation\n    request: {type: tone, content: "hi"}\n' > c.yaml"#, &["certify", "--protocol", "promptkit-exec", "--role", "eval", "--no-progress", "--cases", "$D/c.yaml", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "eval"], 2, "missing field `expect`"),
    // ---------------------------------------------------------------- certify --runtime-config
    row("certify rc: binding without command", r#"{ rc_head; printf 'spec:\n  tools:\n    sentiment_analysis:\n      exec:\n        comand: python3\n        args: [./tools/sentiment.py]\n        timeout_ms: 5000\n'; } > rc.yaml"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml"], 2, "rc.yaml:9:9: `sentiment_analysis` has no command"),
    row("certify rc: top-level key typo", r#"{ rc_head; printf 'spec:\n  tool:\n    sentiment_analysis:\n      exec:\n        command: python3\n        args: [./tools/sentiment.py]\n'; } > rc.yaml"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml"], 2, "binds no exec plugin"),
    row("certify rc: binding a missing script", r#"{ rc_head; printf 'spec:\n  evals:\n    tone_check:\n      command: python3\n      args: [./evals/nope.py]\n'; } > rc.yaml"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml"], 2, "rc.yaml:7:5").absent("after `--`"),
    row("certify rc: empty spec", r#"{ rc_head; printf 'spec: {}\n'; } > rc.yaml"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml"], 2, "rc.yaml:5:7: binds no exec plugin"),
    row("certify rc: wrong kind", r#"printf 'apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: Arena\nspec:\n  evals:\n    tone_check:\n      command: python3\n      args: [./evals/tone_check.py]\n' > rc.yaml"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml"], 2, "rc.yaml:2:7: kind must be RuntimeConfig"),
    row("certify rc: bad hook", r#"{ rc_head; printf 'spec:\n  hooks:\n    content_policy:\n      command: python3\n      args: [./hooks/content_policy.py]\n      hook: providr\n      phases: [after_cal]\n      mode: filtr\n      timeout_ms: 3000\n'; } > rc.yaml"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml"], 2, "rc.yaml:10:13: hook must be provider, tool, session or eval"),
    row("certify rc: negative hook timeout", r#"{ rc_head; printf 'spec:\n  hooks:\n    content_policy:\n      command: python3\n      args: [./hooks/content_policy.py]\n      hook: providr\n      phases: [after_cal]\n      mode: filtr\n      timeout_ms: -3\n'; } > rc.yaml"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml"], 2, "rc.yaml:13:19: timeout_ms must be a positive number"),
    // BUG 100: DuplicateKeyPolicy (caught by NEVER).
    row("certify rc: duplicate binding", r#"{ rc_head; printf 'spec:\n  evals:\n    tone_check:\n      command: python3\n      args: [./evals/tone_check.py]\n    tone_check:\n      command: python3\n      args: [./evals/response_quality.py]\n'; } > rc.yaml"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml"], 2, "rc.yaml:10:5"),
    // Row 101: the typo is now a note naming it (PromptKit drops the key too); exit 2 would also do.
    row("certify rc: binding key typo is named", r#"{ rc_head; printf 'spec:\n  evals:\n    tone_check:\n      command: %s\n      args: [mock-plugin, --protocol, promptkit-exec, --role, eval]\n      timout_ms: 100\n' "$P"; } > rc.yaml"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml"], 0, "timout_ms").or_exit(2),
    row("certify rc: the mock bound as an eval", r#"{ rc_head; printf 'spec:\n  evals:\n    tone_check:\n      command: %s\n      args: [mock-plugin, --protocol, promptkit-exec, --role, eval]\n' "$P"; } > rc.yaml"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml"], 0, "CONFORMANT: 1 of 1 plugins conformant"),
    row("certify rc: args is a string", r#"{ rc_head; printf 'spec:\n  evals:\n    tone_check:\n      command: python3\n      args: ./evals/tone_check.py\n'; } > rc.yaml"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml"], 2, "rc.yaml:9:13: expected a list, found a string"),
    row("certify rc: with a plugin command", "", &["certify", "--no-progress", "--runtime-config", "examples/promptkit-runtime-config/runtime.yaml", "--", "sh", ENV_GUARD], 2, "cannot be used with"),
    row("certify rc: with --protocol", "", &["certify", "--no-progress", "--runtime-config", "examples/promptkit-runtime-config/runtime.yaml", "--protocol", "runok-extension"], 2, "cannot be used with '--protocol <FAMILY>'"),
    row("certify rc: --pack without --runtime-config", "", &["certify", "--no-progress", "--pack", "examples/promptkit-runtime-config/agent.pack.json", "--protocol", "runok-extension", "--", "sh", ENV_GUARD], 2, "--pack is read with --runtime-config only"),
    row("certify rc: --pack not UTF-8", r#"garbage"#, &["certify", "--no-progress", "--runtime-config", "examples/promptkit-runtime-config/runtime.yaml", "--pack", "$D/garbage.bin"], 2, "garbage.bin:1:1: not UTF-8 text"),
    row("certify rc: a folder", "", &["certify", "--no-progress", "--runtime-config", "$D"], 2, "$D: is a folder"),
    // ---------------------------------------------------------------- checks
    row("checks: unknown protocol", "", &["checks", "--protocol", "nope"], 2, "unknown protocol `nope`"),
    row("checks: junit is not a catalogue format", "", &["checks", "--format", "junit"], 2, "the catalogue is not a test run"),
    row("checks: markdown", "", &["checks", "--format", "markdown", "--protocol", "runok-extension"], 0, "## proctor check catalogue ("),
    row("checks: json", "", &["checks", "--format", "json", "--protocol", "picoclaw-hook"], 0, "PICOCLAW-ACTION"),
    row("checks: stray argument", "", &["checks", "extra-arg"], 2, "unexpected argument 'extra-arg' found"),
    // ---------------------------------------------------------------- certificate check
    row("certificate: current", r#"certified"#, &["certificate", "check", "$D/cert.json"], 0, "certificate current: 2 file(s) unchanged"),
    row("certificate: the script changed", r#"certified; echo '# edited' >> guard.sh"#, &["certificate", "check", "$D/cert.json"], 1, "certificate stale"),
    row("certificate: the script is now a folder", r#"certified; rm guard.sh; mkdir guard.sh"#, &["certificate", "check", "$D/cert.json"], 1, "guard.sh"),
    row("certificate: hand-edited command", r#"certified; awk '/"command": \[/{c=1} c&&/guard.sh/{sub(/"[^"]*guard.sh"/,"\"/etc/passwd\""); c=0} {print}' cert.json > e.json; grep -q /etc/passwd e.json"#, &["certificate", "check", "$D/e.json"], 2, "edited after proctor wrote it"),
    row("certificate: upper-case sha256", r#"certified; sed 's/\("sha256": "\)\([0-9a-f]*\)"/\1\U\2"/' cert.json > e.json; grep -q '"sha256": "[0-9A-F]*[A-F]' e.json"#, &["certificate", "check", "$D/e.json"], 2, "e.json: not a proctor certificate"),
    row("certificate: truncated", r#"certified; head -c 400 cert.json > e.json"#, &["certificate", "check", "$D/e.json"], 2, "e.json: not a proctor certificate"),
    // BUG 69: the certificate's script name is printed raw.
    row("certificate: ESC in a certified script's name", r#"guard "$(printf 'g\033]0;pwned\007\033[31mRED\342\200\256.sh')"; "$P" certify --protocol runok-extension --no-progress --certificate cert.json -- sh "$D/$(printf 'g\033]0;pwned\007\033[31mRED\342\200\256.sh')" >/dev/null 2>&1"#, &["certificate", "check", "$D/cert.json"], 0, "certificate current").esc(),
    // BUG 78: serde wording, no "is empty".
    row("certificate: empty", r#": > c.json"#, &["certificate", "check", "$D/c.json"], 2, "is empty"),
    row("certificate: not UTF-8", r#"garbage"#, &["certificate", "check", "$D/garbage.bin"], 2, "garbage.bin"),
    row("certificate: missing", "", &["certificate", "check", "$D/none.json"], 2, "none.json: cannot read: No such file or directory"),
    row("certificate: no argument", "", &["certificate", "check"], 2, "the following required arguments were not provided"),
    // ---------------------------------------------------------------- pack check
    row("pack check: piped stdin", "", &["pack", "check", "/dev/stdin"], 1, "/dev/stdin under documented: valid").stdin(SUPPORT_PACK),
    row("pack check: schema errors located", r#"printf 'id: Bad Id!\nname: Broken\nversion: not-semver\ntemplate_engine:\n  version: v1\n  syntax: "{{variable}}"\nprompts:\n  greet:\n    id: greet\n    name: Greet\n    version: 1.0.0\n    system_template: "Hello {{company}}"\n' > p.yaml"#, &["pack", "check", "$D/p.yaml"], 1, "p.yaml:1:5: error[PACK-PATTERN]"),
    // BUG 114: DuplicateKeyPolicy and "0 pack(s) checked under ;" (caught by NEVER).
    row("pack check: duplicate key (yaml)", r#"printf 'id: dup\nname: Dup\nname: Dup2\nversion: 1.0.0\ntemplate_engine: {version: v1, syntax: "{{variable}}"}\nprompts:\n  p: {id: p, name: P, version: 1.0.0, system_template: "hi"}\n' > p.yaml"#, &["pack", "check", "$D/p.yaml"], 2, "p.yaml:3:1"),
    // BUG 123: the same leak inside the JSON `error` field.
    row("pack check: duplicate key (yaml, --format json)", r#"printf 'id: dup\nname: Dup\nname: Dup2\nversion: 1.0.0\ntemplate_engine: {version: v1, syntax: "{{variable}}"}\nprompts:\n  p: {id: p, name: P, version: 1.0.0, system_template: "hi"}\n' > p.yaml"#, &["pack", "check", "--format", "json", "$D/p.yaml", "$D/none.json"], 2, "p.yaml:3:1"),
    row("pack check: an array", r#"echo '[1,2,3]' > p.json"#, &["pack", "check", "$D/p.json"], 2, "p.json:1:1: a pack is one object at the top level, this is an array"),
    row("pack check: a string", r#"echo '"just a string"' > p.json"#, &["pack", "check", "$D/p.json"], 2, "this is a string"),
    row("pack check: empty", r#": > p.json"#, &["pack", "check", "$D/p.json"], 2, "p.json: the file is empty"),
    row("pack check: nested 200000 deep", r#"awk 'BEGIN{for(i=0;i<200000;i++) printf "["; for(i=0;i<200000;i++) printf "]"; print ""}' > p.json"#, &["pack", "check", "$D/p.json"], 2, "p.json:1:128: not valid JSON"),
    // BUG 121: "budget breached: Nodes" (caught by NEVER).
    row("pack check: alias bomb", r#"{ printf 'id: bomb\nname: Bomb\nversion: 1.0.0\ntemplate_engine: {version: v1, syntax: "{{variable}}"}\nmetadata:\n'; laughs '  ' map; printf 'prompts:\n  p: {id: p, name: P, version: 1.0.0, system_template: "hi"}\n'; } > p.yaml"#, &["pack", "check", "$D/p.yaml"], 2, "p.yaml"),
    row("pack check: escapes in prompt keys", r#"printf '{"id":"esc","name":"E","version":"1.0.0","template_engine":{"version":"v1","syntax":"{{variable}}"},"prompts":{"\\u001b[2Jevil":{"id":"p","name":"\\u001b]0;pwned\\u0007","version":"1.0.0","system_template":"hi"}}}\n' > p.json"#, &["pack", "check", "$D/p.json"], 0, "\\u{1b}[2Jevil").esc(),
    row("pack check: ESC in the file name", r#"cp "$R/examples/promptpack/support.pack.json" "$(printf 'x\033]0;pwn\007\033[31mred\342\200\256.pack.json')""#, &["pack", "check", "$D/x\x1b]0;pwn\x07\x1b[31mred\u{202e}.pack.json"], 1, "under documented: valid").esc(),
    row("pack check: ESC in a missing file's name", "", &["pack", "check", "$D/nonexist\x1b[31mx.json"], 2, "No such file or directory").esc(),
    // BUG 147: a newline in the file name splits every diagnostic line.
    row("pack check: newline in the file name", "cp \"$R/examples/promptpack/support.pack.json\" 'new\nline.pack.json'", &["pack", "check", "$D/new\nline.pack.json"], 1, "new\\nline.pack.json"),
    row("pack check: no prompts", r#"printf '{"id":"empty","name":"E","version":"1.0.0","template_engine":{"version":"v1","syntax":"{{variable}}"},"prompts":{}}\n' > p.json"#, &["pack", "check", "$D/p.json"], 1, "error[PACK-EMPTY]"),
    row("pack check: unknown profile", "", &["pack", "check", "--profile", "nosuch", SUPPORT], 2, "unknown pack profile `nosuch`"),
    row("pack check: no argument", "", &["pack", "check"], 2, "the following required arguments were not provided"),
    row("pack check: a folder", "", &["pack", "check", "$D"], 2, "no pack files under it"),
    // ---------------------------------------------------------------- pack render
    row("pack render: renders despite pack errors", r#"printf 'id: Bad Id!\nname: Broken\nversion: 1.0.0\ntemplate_engine:\n  version: v1\n  syntax: "{{variable}}"\nprompts:\n  greet:\n    id: greet\n    name: Greet\n    version: 1.0.0\n    system_template: "Hello {{company}}"\n' > p.yaml"#, &["pack", "render", "$D/p.yaml", "--prompt", "greet", "--var", "company=Acme"], 1, "Hello Acme"),
    row("pack render: unknown prompt", "", &["pack", "render", SUPPORT, "--prompt", "nosuch", "--var", "company=Acme"], 2, "the pack has no prompt `nosuch`; its prompts are triage, resolve, escalate"),
    row("pack render: unknown prompt (--format json)", "", &["pack", "render", "--format", "json", SUPPORT, "--prompt", "nosuch"], 2, "the pack has no prompt `nosuch`"),
    row("pack render: --var without =", "", &["pack", "render", SUPPORT, "--prompt", "triage", "--var", "company"], 2, "`company` is not NAME=VALUE"),
    row("pack render: --var with an empty name", "", &["pack", "render", SUPPORT, "--prompt", "triage", "--var", "=x", "--var", "company=Acme"], 2, "`=x` is not NAME=VALUE"),
    // BUG 132/137: a --var typo is never called unknown; the pack is blamed (exit 1).
    row("pack render: --var name typo", "", &["pack", "render", SUPPORT, "--prompt", "triage", "--var", "compnay=Acme"], 2, "compnay"),
    row("pack render: --var name typo under promptkit", "", &["pack", "render", SUPPORT, "--prompt", "triage", "--profile", "promptkit", "--var", "compnay=Acme"], 2, "compnay"),
    // BUG 138: an unknown --var is ignored without a word (exit 2, or 0 with a warning naming it).
    row("pack render: unknown extra --var", "", &["pack", "render", SUPPORT, "--prompt", "triage", "--profile", "documented", "--var", "company=Acme", "--var", "bogus=1"], 2, "bogus").or_exit(0),
    // BUG 136/300: DuplicateKeyPolicy (caught by NEVER).
    row("pack render: duplicate key (yaml)", r#"printf 'id: dup\nname: Dup\nname: Dup2\nversion: 1.0.0\ntemplate_engine: {version: v1, syntax: "{{variable}}"}\nprompts:\n  p: {id: p, name: P, version: 1.0.0, system_template: "hi"}\n' > p.yaml"#, &["pack", "render", "--format", "json", "$D/p.yaml", "--prompt", "p"], 2, "p.yaml:3:1"),
    // BUG 139/140/141: the vars file's errors point at `<input>` (caught by NEVER).
    row("pack render: --vars-file broken YAML", r#"printf 'company: [1, 2\n' > vars.yaml"#, &["pack", "render", SUPPORT, "--prompt", "triage", "--vars-file", "$D/vars.yaml"], 2, "vars.yaml:1:10"),
    row("pack render: --vars-file duplicate key", r#"printf 'company: Acme\ncompany: Other\n' > vars.yaml"#, &["pack", "render", SUPPORT, "--prompt", "triage", "--vars-file", "$D/vars.yaml"], 2, "vars.yaml:2:1"),
    row("pack render: --vars-file is a list", r#"printf -- '- a\n- b\n' > vars.yaml"#, &["pack", "render", SUPPORT, "--prompt", "triage", "--vars-file", "$D/vars.yaml"], 2, "vars.yaml:1:1"),
    // BUG 144: the --prompt value is echoed raw.
    row("pack render: ESC in --prompt", "", &["pack", "render", SUPPORT, "--prompt", "\x1b]0;x\x07\x1b[31mred", "--var", "company=A"], 2, "the pack has no prompt").esc(),
    // ---------------------------------------------------------------- mock-plugin
    row("mock-plugin: no arguments", "", &["mock-plugin"], 2, "the following required arguments were not provided"),
    row("mock-plugin: list faults", "", &["mock-plugin", "--list-faults"], 0, "two-documents"),
    row("mock-plugin: unknown fault", "", &["mock-plugin", "--protocol", "runok-extension", "--fault", "no-such-fault"], 2, "unknown fault `no-such-fault`; expected one of"),
    row("mock-plugin: unknown decision", "", &["mock-plugin", "--protocol", "runok-extension", "--decision", "maybe"], 2, "unknown decision `maybe`; expected one of: allow, deny"),
    row("mock-plugin: unknown role", "", &["mock-plugin", "--protocol", "runok-extension", "--role", "guard,bogus"], 2, "unknown role `bogus`; expected one of: guard"),
    row("mock-plugin: --scenario without --plugin", "", &["mock-plugin", "--scenario", TIMEOUT_SCENARIO], 2, "--plugin <NAME>"),
    row("mock-plugin: --plugin not in the scenario", "", &["mock-plugin", "--scenario", TIMEOUT_SCENARIO, "--plugin", "nosuch"], 2, "no plugin named `nosuch`; plugins: slow_guard"),
    row("mock-plugin: --record in a missing folder", "", &["mock-plugin", "--protocol", "runok-extension", "--record", "$D/nodir/rec.jsonl"], 2, "--record $D/nodir/rec.jsonl: the folder $D/nodir does not exist"),
    row("mock-plugin: answers a runok request", "", &["mock-plugin", "--protocol", "runok-extension", "--decision", "deny"], 0, "\"status\":\"deny\"").stdin(RUNOK_REQUEST),
    row("mock-plugin: hang and crash-after 0 with no input", "", &["mock-plugin", "--protocol", "picoclaw-hook", "--fault", "hang", "--fault", "crash-after", "--crash-after", "0"], 0, ""),
    // ---------------------------------------------------------------- mock-provider
    row("mock-provider: no arguments", "", &["mock-provider"], 2, "--scenario <FILE>").stdin(b""),
    row("mock-provider: stops when stdin closes", "", &["mock-provider", "--scenario", PICO_SCENARIO], 0, "stopping (stdin closed)").stdin(b""),
    row("mock-provider: --listen on every address", "", &["mock-provider", "--scenario", PICO_SCENARIO, "--listen", "0.0.0.0:0"], 2, "only loopback addresses").stdin(b""),
    row("mock-provider: --listen on a public address", "", &["mock-provider", "--scenario", PICO_SCENARIO, "--listen", "8.8.8.8:80"], 2, "only loopback addresses").stdin(b""),
    row("mock-provider: --listen port out of range", "", &["mock-provider", "--scenario", PICO_SCENARIO, "--listen", "127.0.0.1:99999"], 2, "is not an address such as 127.0.0.1:8080").stdin(b""),
    row("mock-provider: --listen a host name", "", &["mock-provider", "--scenario", PICO_SCENARIO, "--listen", "localhost:0"], 2, "is not an address such as 127.0.0.1:8080").stdin(b""),
    row("mock-provider: --journal in a missing folder", "", &["mock-provider", "--scenario", PICO_SCENARIO, "--journal", "$D/nodir/j.jsonl"], 2, "--journal $D/nodir/j.jsonl: the folder $D/nodir does not exist").stdin(b""),
    row("mock-provider: a cases file as the scenario", r#"printf 'cases:\n  - name: a\n' > c.yaml"#, &["mock-provider", "--scenario", "$D/c.yaml"], 2, "unknown field `cases`").stdin(b""),
    // BUG 234: "budget breached" (caught by NEVER).
    row("mock-provider: alias bomb in the scenario", r#"{ printf 'id: t/bomb\nruntime: picoclaw\nplugins:\n  - {name: h, process: {mock: {}}, config: {picoclaw_hook: {intercept: [before_tool]}}}\ntools:\n  bash: {result: done}\nllm:\n  - reply:\n      tool_calls:\n        - name: bash\n          arguments:\n'; laughs '            ' map; printf 'turns:\n  - user: hi\nexpect:\n  outcome: completed\n'; } > s.yaml"#, &["mock-provider", "--scenario", "$D/s.yaml"], 2, "s.yaml").stdin(b""),
    // ---------------------------------------------------------------- run
    row("run: a good scenario", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 0, "PASS t/good"),
    row("run: a failing scenario", r#"scenario bad allow 'expect: {outcome: deny}\n' > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 1, "outcome: expected deny, got allow"),
    // BUG 209: an outcome runok cannot have is a scenario failure (exit 1).
    row("run: expect.outcome not a runok outcome", r#"scenario bad-outcome allow 'expect:\n  outcome: maybe\n' > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 2, "maybe"),
    row("run: no expect", r#"scenario no-expect allow > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 2, "the scenario judges nothing"),
    row("run: empty expect", r#"scenario empty-expect allow 'expect: {}\n' > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 2, "the scenario judges nothing"),
    row("run: no turns", r#"printf 'id: t/no-turns\nruntime: runok\nplugins:\n  - {name: g, process: {mock: {decision: allow}}, config: {runok_extension: {}}}\nturns: []\nexpect:\n  outcome: allow\n' > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 2, "s.yaml: the scenario has no turns"),
    row("run: unknown runtime", r#"printf 'id: x/bad-runtime\nruntime: runokk\nplugins: []\nturns:\n  - command: {raw: ls}\nexpect: {outcome: allow}\n' > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 2, "s.yaml:2:10"),
    // BUG 214: python3 with a missing script PASSes (runok falls back to ask).
    row("run: plugin script missing", r#"printf 'id: t/missing-script\nruntime: runok\nplugins:\n  - {name: g, process: {command: [python3, %s/guard.py]}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\nexpect:\n  outcome: ask\n' "$D" > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 2, "guard.py"),
    row("run: plugin command missing", r#"printf 'id: t/cmd-not-found\nruntime: runok\nplugins:\n  - {name: g, process: {command: [%s/no-such-guard]}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\nexpect:\n  outcome: ask\n' "$D" > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 2, "cannot start `$D/no-such-guard`"),
    // BUG 216: DuplicateKeyPolicy (caught by NEVER).
    row("run: duplicate key", r#"{ printf 'id: t/dup\n'; scenario dup2 allow 'expect: {outcome: allow}\n'; } > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 2, "s.yaml:2:1"),
    // BUG 217: a plugin the scenario does not have is a scenario failure (exit 1).
    row("run: expect.decisions names an unknown plugin", r#"scenario unknown-plugin allow 'expect:\n  outcome: allow\n  decisions:\n    - {plugin: nosuch, decision: allow}\n' > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 2, "nosuch"),
    row("run: two plugins with one name", r#"printf 'id: t/dup-plugin\nruntime: runok\nplugins:\n  - {name: g, process: {mock: {decision: allow}}, config: {runok_extension: {}}}\n  - {name: g, process: {mock: {decision: deny}}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\nexpect:\n  outcome: allow\n' > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 2, "s.yaml:5:12: two plugins are named `g`"),
    row("run: empty file", r#": > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 2, "s.yaml: the file is empty"),
    row("run: folder without scenarios", r#"echo hi > readme.txt"#, &["run", "--no-progress", "$D"], 2, "no scenario files (*.yaml) under $D"),
    row("run: missing path", "", &["run", "--no-progress", "$D/nonexistent"], 2, "$D/nonexistent: cannot read: No such file or directory"),
    row("run: --jobs 0", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml"#, &["run", "--no-progress", "--jobs", "0", "$D/s.yaml"], 2, "invalid value '0' for '--jobs <N>'"),
    // BUG 224/229: tokio panics "a semaphore may not have more than MAX_PERMITS permits" (exit 101).
    row("run: --jobs u64::MAX", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml"#, &["run", "--no-progress", "--jobs", "18446744073709551615", "$D/s.yaml"], 2, "--jobs"),
    row("run: --jobs just above tokio's limit", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml"#, &["run", "--no-progress", "--jobs", "2305843009213693952", "$D/s.yaml"], 2, "--jobs"),
    row("run: --jobs above the bound", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml"#, &["run", "--no-progress", "--jobs", "4000000000", "$D/s.yaml"], 2, "invalid value '4000000000' for '--jobs <N>'"),
    row("run: unknown --profile", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml"#, &["run", "--no-progress", "--profile", "bogus", "$D/s.yaml"], 2, "--profile: unknown profile `bogus`"),
    row("run: --profile all", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml"#, &["run", "--no-progress", "--profile", "all", "$D/s.yaml"], 0, "PASS t/good [documented]"),
    // BUG 231: "budget breached" (caught by NEVER).
    row("run: alias bomb", r#"{ printf 'id: t/bomb\nruntime: picoclaw\nplugins:\n  - {name: h, process: {mock: {}}, config: {picoclaw_hook: {intercept: [before_tool]}}}\ntools:\n  bash: {result: done}\nllm:\n  - reply:\n      tool_calls:\n        - name: bash\n          arguments:\n'; laughs '            ' map; printf 'turns:\n  - user: hi\nexpect:\n  outcome: completed\n'; } > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 2, "s.yaml"),
    row("run: ESC in the scenario id", r#"scenario X deny 'expect: {outcome: deny}\n' | sed 's|^id: t/X$|id: "t/\\e]0;pwn\\a\\e[31mred\\u202e"|' > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 0, "PASS t/\\u{1b}]0;pwn").esc(),
    row("run: markdown escapes the scenario id", r#"scenario X deny 'expect: {outcome: deny}\n' | sed 's|^id: t/X$|id: "t/\\e]0;pwn\\a\\e[31mred\\u202e"|' > s.yaml"#, &["run", "--no-progress", "--format", "markdown", "$D/s.yaml"], 0, "t/\\u{1b}]0;pwn").esc(),
    row("run: junit escapes the scenario id", r#"scenario X deny 'expect: {outcome: deny}\n' | sed 's|^id: t/X$|id: "t/\\e]0;pwn\\a\\e[31mred"|' > s.yaml"#, &["run", "--no-progress", "--format", "junit", "$D/s.yaml"], 0, "name=\"t/red\"").esc(),
    // Issue 30, doubtful cases, decided: a link cycle is searched once; a scripted delay past
    // 10 minutes is refused where it is written; what PromptKit cannot read as a timeout says why;
    // a variables file is named as the file; a number no runtime holds is said to be one.
    row("run: a link back up the tree is searched once", r#"mkdir sub; scenario a deny 'expect: {outcome: deny}\n' > sub/a.yaml; ln -s .. sub/loop; ln -s a.yaml sub/b.yaml"#, &["run", "--no-progress", "$D"], 0, "1 passed, 0 failed").absent("already the id of"),
    row("run: delay_ms u64::MAX", r#"printf 'id: t/d\nruntime: picoclaw\nplugins: []\nllm:\n  - reply: {text: hi, delay_ms: 18446744073709551615}\nturns:\n  - user: hello\n' > d.yaml"#, &["run", "--no-progress", "$D/d.yaml"], 2, "d.yaml:5:33: delay_ms 18446744073709551615 is more than 600000"),
    row("certify rc: timeout_ms 1e30", r#"{ rc_head; printf 'spec:\n  evals:\n    t:\n      command: sh\n      args: [x.sh]\n      timeout_ms: 1e30\n'; } > rc.yaml"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml"], 2, "timeout_ms 1e+30 is more than PromptKit can read"),
    row("certify rc: timeout_ms 1.5", r#"{ rc_head; printf 'spec:\n  evals:\n    t:\n      command: sh\n      args: [x.sh]\n      timeout_ms: 1.5\n'; } > rc.yaml"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml"], 2, "timeout_ms 1.5 is not a whole number"),
    row("pack render: --vars-file with an unknown variable", r#"printf 'compnay: Acme\n' > v.yaml"#, &["pack", "render", SUPPORT, "--prompt", "triage", "--vars-file", "$D/v.yaml"], 2, "--vars-file $D/v.yaml: prompt `triage` has no variable `compnay`"),
    row("certify: a reply id of 1e400", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "sh", "-c", r#"cat >/dev/null; printf '{"jsonrpc":"2.0","id":1e400,"result":{"status":"allow"}}'"#], 1, "a number out of the range of a 64-bit float"),
    // BUG 235: the scenario is overwritten by the report, exit 0.
    row("run: --output is the scenario", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml"#, &["run", "--no-progress", "--output", "$D/s.yaml", "$D/s.yaml"], 2, "s.yaml"),
    row("run: malformed --baseline with --write-baseline", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml; printf 'expected_failures:\n  - scenario: t/good\n    reason: [not, a, string\n' > b.yaml"#, &["run", "--no-progress", "--write-baseline", "$D/w.yaml", "--baseline", "$D/b.yaml", "$D/s.yaml"], 2, "b.yaml:3:13"),
    // BUG 239: a certify baseline given to `run` is accepted and ignored, exit 0.
    row("run: a certify baseline", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml; printf 'expected_failures:\n  - {check: FRAMING-SINGLE-DOCUMENT, profile: documented, reason: "old bug"}\n' > b.yaml"#, &["run", "--no-progress", "--baseline", "$D/b.yaml", "$D/s.yaml"], 2, "b.yaml"),
    // BUG 240: the hint describes the certify baseline format.
    row("run: --baseline key typo", r#"scenario bad allow 'expect: {outcome: deny}\n' > s.yaml; printf 'expected_failures:\n  - {scenaro: t/bad, reason: "typo in key"}\n' > b.yaml"#, &["run", "--no-progress", "--baseline", "$D/b.yaml", "$D/s.yaml"], 2, "b.yaml:2:6").absent("{check, profile, reason}"),
    row("run: --baseline accepts a known failure", r#"scenario bad allow 'expect: {outcome: deny}\n' > s.yaml; printf 'expected_failures:\n  - {scenario: t/bad, reason: known}\n' > b.yaml"#, &["run", "--no-progress", "--baseline", "$D/b.yaml", "$D/s.yaml"], 0, "EXPECTED_FAILURE t/bad"),
    // ---------------------------------------------------------------- load
    row("load: --requests 0", "", &["load", "--protocol", "runok-extension", "--requests", "0", "--", "$P", "mock-plugin", "--protocol", "runok-extension"], 2, "invalid value '0' for '--requests <N>'"),
    row("load: --concurrency 0", "", &["load", "--protocol", "runok-extension", "--concurrency", "0", "--", "$P", "mock-plugin", "--protocol", "runok-extension"], 2, "invalid value '0' for '--concurrency <C>'"),
    row("load: --concurrency u64::MAX", "", &["load", "--protocol", "runok-extension", "--requests", "5", "--concurrency", "18446744073709551615", "--", "$P", "mock-plugin", "--protocol", "runok-extension"], 2, "is not in 1..=4096"),
    row("load: --requests u64::MAX", "", &["load", "--protocol", "runok-extension", "--requests", "18446744073709551615", "--concurrency", "1", "--timeout-ms", "1", "--", "$D/no-such-plugin"], 2, "is not in 1..=10000000"),
    row("load: runok mock", "", &["load", "--protocol", "runok-extension", "--requests", "5", "--", "$P", "mock-plugin", "--protocol", "runok-extension"], 0, "5 requests to a runok-extension plugin"),
    row("load: picoclaw mock", "", &["load", "--protocol", "picoclaw-hook", "--requests", "5", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook"], 0, "5 requests to a picoclaw-hook plugin"),
    row("load: a plugin's bad replies are its fault", "", &["load", "--protocol", "runok-extension", "--requests", "3", "--", "sh", "-c", "cat >/dev/null; echo garbage"], 1, "bad replies 3"),
    row("load: a plugin's crash is its fault", "", &["load", "--protocol", "picoclaw-hook", "--requests", "3", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook", "--fault", "crash-after", "--crash-after", "1"], 1, "crashes 1"),
    row("load: exec needs --role", "", &["load", "--protocol", "promptkit-exec", "--requests", "5", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec"], 2, "promptkit-exec needs --role"),
    row("load: picoclaw missing plugin", "", &["load", "--protocol", "picoclaw-hook", "--requests", "3", "--", "$D/no-such-plugin"], 2, "cannot start `$D/no-such-plugin`"),
    // BUG 169/170/171/173: one-shot families have no start-up check (exit 1, the plugin blamed).
    row("load: runok python3 with a missing script", "", &["load", "--protocol", "runok-extension", "--requests", "3", "--", "python3", "$D/none.py"], 2, "none.py"),
    row("load: runok python3 with a missing script (json)", "", &["load", "--protocol", "runok-extension", "--requests", "3", "--format", "json", "--", "python3", "$D/none.py"], 2, "none.py"),
    row("load: runok missing plugin", "", &["load", "--protocol", "runok-extension", "--requests", "3", "--", "$D/no-such-plugin"], 2, "no-such-plugin"),
    row("load: runok sh with a directory as its script", r#"mkdir plugin.d"#, &["load", "--protocol", "runok-extension", "--requests", "3", "--", "sh", "$D/plugin.d"], 2, "plugin.d"),
    // ---------------------------------------------------------------- verify
    row("verify: a good record", r#"recorded"#, &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec"], 0, "(what the runtime sent)"),
    row("verify: an empty record folder", r#"recorded; mkdir empty"#, &["verify", "--scenario", "$D/s.yaml", "--record", "$D/empty"], 2, "nothing to judge: no <plugin>.jsonl records in $D/empty"),
    row("verify: a record that is not UTF-8", r#"recorded; garbage rec/g.jsonl"#, &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec"], 2, "rec/g.jsonl:1:1: not UTF-8 text"),
    row("verify: an empty record", r#"recorded; : > rec/g.jsonl"#, &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec"], 2, "nothing was judged"),
    row("verify: a record named after no plugin", r#"recorded; mv rec/g.jsonl rec/other.jsonl"#, &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec"], 2, "no mock plugin of the scenario is named `other`"),
    row("verify: a broken record", r#"recorded; printf '{"at_ms":0,"start":true,"pid":1}\n{"at_ms":"x","text":5}\nnot json\n' > rec/g.jsonl"#, &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec"], 2, "rec/g.jsonl: record line 2"),
    row("verify: a record symlink loop", r#"recorded; rm rec/g.jsonl; ln -s "$D/rec/b.jsonl" rec/g.jsonl; ln -s "$D/rec/g.jsonl" rec/b.jsonl"#, &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec"], 2, "Too many levels of symbolic links"),
    row("verify: nothing to verify", r#"recorded"#, &["verify", "--scenario", "$D/s.yaml"], 2, "nothing to verify"),
    row("verify: a broken journal", r#"recorded; printf 'not json\n' > j.jsonl"#, &["verify", "--scenario", "$D/s.yaml", "--journal", "$D/j.jsonl"], 2, "j.jsonl: journal line 1: not a journal entry"),
    row("verify: --check matching nothing", r#"recorded"#, &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec", "--format", "json", "--check", "NOPE"], 2, "--check/--skip-check NOPE: matches no check"),
    row("verify: --skip-check everything", r#"recorded"#, &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec", "--skip-check", "*"], 2, "nothing would be judged"),
    row("verify: unknown --profile", r#"recorded"#, &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec", "--profile", "bogus"], 2, "--profile: unknown profile `bogus`"),
    row("verify: a record for another scenario's plugin", r#"recorded"#, &["verify", "--scenario", TIMEOUT_SCENARIO, "--record", "$D/rec"], 2, "no mock plugin of the scenario is named `g`"),
    row("verify: a malformed --baseline", r#"recorded; printf 'expected_failures:\n  - {scenaro: t/good, reason: typo}\n' > b.yaml"#, &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec", "--baseline", "$D/b.yaml"], 2, "b.yaml:2:6"),
    // ---------------------------------------------------------------- schema
    row("schema: prints the JSON Schema", "", &["schema"], 0, "\"$schema\": \"https://json-schema.org/draft/2020-12/schema\""),
    row("schema: stray argument", "", &["schema", "extra"], 2, "unexpected argument 'extra' found"),
    // Issue 30: outputs never destroy what the user named
    // Item 1: a device, FIFO, socket or /dev/fd path is written to directly or refused before the run, never renamed over.
    row("output node: certify --output", "node out", &["certify", "--protocol", "runok-extension", "--no-progress", "--output", "$D/out", "--", "sh", ENV_GUARD], 0, "").after("test -c out"),
    row("output node: certify --certificate", "node out", &["certify", "--protocol", "runok-extension", "--no-progress", "--certificate", "$D/out", "--", "sh", ENV_GUARD], 0, "certificate: covers").after("test -c out"),
    row("output node: certify --badge", "node out", &["certify", "--protocol", "runok-extension", "--no-progress", "--badge", "$D/out", "--", "sh", ENV_GUARD], 0, "conformant").after("test -c out"),
    row("output node: certify --write-baseline", "node out", &["certify", "--protocol", "runok-extension", "--no-progress", "--write-baseline", "$D/out", "--", "sh", ENV_GUARD], 0, "conformant").after("test -c out"),
    row("output node: certify --format junit --output", "node out", &["certify", "--protocol", "runok-extension", "--no-progress", "--format", "junit", "--output", "$D/out", "--", "sh", ENV_GUARD], 0, "").after("test -c out"),
    row("output node: certify --runtime-config --output", "eval_rc > rc.yaml; node out", &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml", "--output", "$D/out"], 0, "").after("test -c out"),
    row("output node: run --output", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml; node out"#, &["run", "--no-progress", "--output", "$D/out", "$D/s.yaml"], 0, "").after("test -c out"),
    row("output node: run --write-baseline", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml; node out"#, &["run", "--no-progress", "--write-baseline", "$D/out", "$D/s.yaml"], 0, "PASS t/good").after("test -c out"),
    row("output node: run --record-dir is a device", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml; node rec"#, &["run", "--no-progress", "--record-dir", "$D/rec", "$D/s.yaml"], 2, "--record-dir $D/rec: is not a folder").after("test -c rec"),
    row("output node: run --record-dir holding a device as a record", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml; mkdir rec; node rec/g.jsonl"#, &["run", "--no-progress", "--record-dir", "$D/rec", "$D/s.yaml"], 2, "rec/g.jsonl is there and is not a file").after("test -c rec/g.jsonl"),
    row("output fifo: run --record-dir holding a FIFO as a record", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml; mkdir rec; mkfifo rec/g.jsonl"#, &["run", "--no-progress", "--record-dir", "$D/rec", "$D/s.yaml"], 2, "rec/g.jsonl is there and is not a file").after("test -p rec/g.jsonl"),
    row("output fifo: run --record-dir holding a FIFO as the LLM journal", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml; mkdir rec; mkfifo rec/llm.journal.jsonl"#, &["run", "--no-progress", "--record-dir", "$D/rec", "$D/s.yaml"], 2, "--record-dir: the LLM journal $D/rec/llm.journal.jsonl is there and is not a file").after("test -p rec/llm.journal.jsonl"),
    row("output node: verify --output", "recorded; node out", &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec", "--output", "$D/out"], 0, "").after("test -c out"),
    row("output node: verify --write-baseline", "recorded; node out", &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec", "--write-baseline", "$D/out"], 0, "what the runtime sent").after("test -c out"),
    row("output node: mock-plugin --record", "node out", &["mock-plugin", "--protocol", "runok-extension", "--decision", "deny", "--record", "$D/out"], 0, "\"status\":\"deny\"").stdin(RUNOK_REQUEST).after("test -c out"),
    row("output node: mock-provider --journal", "node out", &["mock-provider", "--scenario", PICO_SCENARIO, "--journal", "$D/out"], 0, "stopping (stdin closed)").stdin(b"").after("test -c out"),
    row("output node: pack check --output", "node out", &["pack", "check", "--output", "$D/out", SUPPORT], 1, "").after("test -c out"),
    row("output fifo: certify --output nobody reads", "mkfifo out", &["certify", "--protocol", "runok-extension", "--no-progress", "--output", "$D/out", "--", "sh", ENV_GUARD], 2, "--output $D/out: is a FIFO that no process reads").after("test -p out"),
    row("output fifo: certify --output read by a process", "reader out got.txt", &["certify", "--protocol", "runok-extension", "--no-progress", "--output", "$D/out", "--", "sh", ENV_GUARD], 0, "").after("test -p out && eventually grep -q CONFORMANT got.txt"),
    row("output fifo: certify --certificate nobody reads", "mkfifo out", &["certify", "--protocol", "runok-extension", "--no-progress", "--certificate", "$D/out", "--", "sh", ENV_GUARD], 2, "--certificate $D/out: is a FIFO that no process reads").after("test -p out"),
    row("output fifo: certify --write-baseline nobody reads", "mkfifo out", &["certify", "--protocol", "runok-extension", "--no-progress", "--write-baseline", "$D/out", "--", "sh", ENV_GUARD], 2, "--write-baseline $D/out: is a FIFO that no process reads").after("test -p out"),
    row("output fifo: run --output nobody reads", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml; mkfifo out"#, &["run", "--no-progress", "--output", "$D/out", "$D/s.yaml"], 2, "is a FIFO that no process reads").after("test -p out"),
    row("output fifo: verify --output nobody reads", "recorded; mkfifo out", &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec", "--output", "$D/out"], 2, "is a FIFO that no process reads").after("test -p out"),
    row("output fifo: mock-plugin --record nobody reads", "mkfifo out", &["mock-plugin", "--protocol", "runok-extension", "--record", "$D/out"], 2, "--record $D/out: is a FIFO that no process reads").stdin(RUNOK_REQUEST).after("test -p out"),
    row("output fifo: mock-provider --journal nobody reads", "mkfifo out", &["mock-provider", "--scenario", PICO_SCENARIO, "--journal", "$D/out"], 2, "--journal $D/out: is a FIFO that no process reads").stdin(b"").after("test -p out"),
    row("output fifo: pack check --output nobody reads", "mkfifo out", &["pack", "check", "--output", "$D/out", SUPPORT], 2, "is a FIFO that no process reads").after("test -p out"),
    row("output socket: certify --output", "sock out", &["certify", "--protocol", "runok-extension", "--no-progress", "--output", "$D/out", "--", "sh", ENV_GUARD], 2, "--output $D/out: is a socket").after("test -S out"),
    row("output socket: certify --badge", "sock out", &["certify", "--protocol", "runok-extension", "--no-progress", "--badge", "$D/out", "--", "sh", ENV_GUARD], 2, "--badge $D/out: is a socket").after("test -S out"),
    row("output socket: verify --output", "recorded; sock out", &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec", "--output", "$D/out"], 2, "is a socket").after("test -S out"),
    row("output socket: mock-provider --journal", "sock out", &["mock-provider", "--scenario", PICO_SCENARIO, "--journal", "$D/out"], 2, "--journal $D/out: is a socket").stdin(b"").after("test -S out"),
    row("output block device: certify --output", "blk out", &["certify", "--protocol", "runok-extension", "--no-progress", "--output", "$D/out", "--", "sh", ENV_GUARD], 2, "--output $D/out: is a block device").after("test -b out"),
    row("output block device: certify --certificate", "blk out", &["certify", "--protocol", "runok-extension", "--no-progress", "--certificate", "$D/out", "--", "sh", ENV_GUARD], 2, "--certificate $D/out: is a block device").after("test -b out"),
    row("output block device: run --output", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml; blk out"#, &["run", "--no-progress", "--output", "$D/out", "$D/s.yaml"], 2, "is a block device").after("test -b out"),
    row("output block device: mock-plugin --record", "blk out", &["mock-plugin", "--protocol", "runok-extension", "--record", "$D/out"], 2, "--record $D/out: is a block device").stdin(RUNOK_REQUEST).after("test -b out"),
    row("output /proc/self/fd/1: certify --output through a link", "ln -s /proc/self/fd/1 out", &["certify", "--protocol", "runok-extension", "--no-progress", "--output", "$D/out", "--", "sh", ENV_GUARD], 0, "CONFORMANT").after("test -L out"),
    row("output /proc/self/fd/1: run --output through a link", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml; ln -s /proc/self/fd/1 out"#, &["run", "--no-progress", "--output", "$D/out", "$D/s.yaml"], 0, "PASS t/good").after("test -L out"),
    row("output: --output in a missing folder is refused before the run", "", &["run", "--no-progress", "--output", "$D/nodir/r.txt", TIMEOUT_SCENARIO], 2, "--output $D/nodir/r.txt: the folder $D/nodir does not exist").absent("PASS"),
    // Item 2: no output over an input, in every mode, whatever its spelling.
    row("clobber: certify --output is the plugin found on PATH", r#"mkdir bin; printf '#!/bin/sh\nexec sh "%s/examples/runok-extension/env_guard.sh"\n' "$R" > bin/myplug; chmod +x bin/myplug; cp bin/myplug keep"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--output", "$D/bin/myplug", "--", "myplug"], 2, "--output $D/bin/myplug is also the program the plugin's command runs").bin_on_path().after("cmp bin/myplug keep"),
    row("clobber: certify --certificate is a hard link to the script", "guard; ln guard.sh hard.sh; cp guard.sh keep", &["certify", "--protocol", "runok-extension", "--no-progress", "--certificate", "$D/hard.sh", "--", "sh", "$D/guard.sh"], 2, "--certificate $D/hard.sh is also a file of the plugin's command").after("cmp guard.sh keep"),
    row("clobber: certify --badge through a symlink to --cases", r#"cp "$R/examples/runok-extension/env_guard.cases.yaml" c.yaml; ln -s c.yaml l.yaml; cp c.yaml keep"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/c.yaml", "--badge", "$D/l.yaml", "--", "sh", ENV_GUARD], 2, "is also the --cases file").after("cmp c.yaml keep"),
    row("clobber: certify --write-baseline is the --cases file", r#"cp "$R/examples/runok-extension/env_guard.cases.yaml" c.yaml; cp c.yaml keep"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/c.yaml", "--write-baseline", "$D/c.yaml", "--", "sh", ENV_GUARD], 2, "--write-baseline $D/c.yaml is also the --cases file").after("cmp c.yaml keep"),
    row("clobber: certify --output is the --baseline", r#"printf 'expected_failures: []\n' > b.yaml; cp b.yaml keep"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--baseline", "$D/b.yaml", "--output", "$D/b.yaml", "--", "sh", ENV_GUARD], 2, "is also the --baseline file").after("cmp b.yaml keep"),
    row("clobber: certify --runtime-config --output is the RuntimeConfig", "eval_rc > rc.yaml; cp rc.yaml keep", &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml", "--output", "$D/rc.yaml"], 2, "--output $D/rc.yaml is also the --runtime-config file").after("cmp rc.yaml keep"),
    row("clobber: certify --runtime-config --output is a binding's script", "guard tool.sh; tool_rc tool.sh > rc.yaml; cp tool.sh keep", &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml", "--output", "$D/tool.sh"], 2, "is also a file of binding `spec.tools.t.exec`").after("cmp tool.sh keep"),
    row("clobber: certify --runtime-config --output is a binding's program", r#"{ rc_head; printf 'spec:\n  evals:\n    e:\n      command: ./ev\n'; } > rc.yaml; printf '#!/bin/sh\nexit 0\n' > ev; chmod +x ev; cp ev keep"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml", "--output", "$D/ev"], 2, "is also the program binding").after("cmp ev keep"),
    row("clobber: certify --runtime-config --output is the cases file beside a script", r#"guard tool.sh; tool_rc tool.sh > rc.yaml; cp "$R/examples/runok-extension/env_guard.cases.yaml" tool.cases.yaml; cp tool.cases.yaml keep"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml", "--output", "$D/tool.cases.yaml"], 2, "is also the cases file of binding").after("cmp tool.cases.yaml keep"),
    row("clobber: certify --runtime-config --output is --pack", r#"eval_rc > rc.yaml; cp "$R/examples/promptkit-runtime-config/agent.pack.json" p.json; cp p.json keep"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml", "--pack", "$D/p.json", "--output", "$D/p.json"], 2, "--output $D/p.json is also the --pack file").after("cmp p.json keep"),
    row("clobber: mock-plugin --record is the --scenario", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml; cp s.yaml keep"#, &["mock-plugin", "--scenario", "$D/s.yaml", "--plugin", "g", "--record", "$D/s.yaml"], 2, "--record $D/s.yaml is also the --scenario file").stdin(RUNOK_REQUEST).after("cmp s.yaml keep"),
    row("clobber: mock-plugin --record is the --script", r#"printf '{"stdout": "{}"}' > play.json; cp play.json keep"#, &["mock-plugin", "--protocol", "runok-extension", "--script", "$D/play.json", "--record", "$D/play.json"], 2, "--record $D/play.json is also the --script file").stdin(RUNOK_REQUEST).after("cmp play.json keep"),
    row("clobber: mock-provider --journal is the --scenario", r#"cp "$R/scenarios/picoclaw/abort-turn-ends-with-error.yaml" s.yaml; cp s.yaml keep"#, &["mock-provider", "--scenario", "$D/s.yaml", "--journal", "$D/s.yaml"], 2, "--journal $D/s.yaml is also the --scenario file").stdin(b"").after("cmp s.yaml keep"),
    row("clobber: mock-provider --journal is the --scenario through ..", r#"mkdir sub; cp "$R/scenarios/picoclaw/abort-turn-ends-with-error.yaml" s.yaml; cp s.yaml keep"#, &["mock-provider", "--scenario", "$D/s.yaml", "--journal", "$D/sub/../s.yaml"], 2, "is also the --scenario file").stdin(b"").after("cmp s.yaml keep"),
    row("clobber: verify --output among the --record folder's records", "recorded", &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec", "--output", "$D/rec/x.jsonl"], 2, "--output $D/rec/x.jsonl is inside a --record folder").after("test ! -e rec/x.jsonl"),
    row("clobber: verify --write-baseline is the --scenario", "recorded; cp s.yaml keep", &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec", "--write-baseline", "$D/s.yaml"], 2, "--write-baseline $D/s.yaml is also the --scenario file").after("cmp s.yaml keep"),
    row("clobber: verify --output is the --record file", "recorded; cp rec/g.jsonl keep", &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec/g.jsonl", "--output", "$D/rec/g.jsonl"], 2, "is also a --record folder").after("cmp rec/g.jsonl keep"),
    row("clobber: verify --output is the --baseline", r#"recorded; printf 'expected_failures: []\n' > b.yaml; cp b.yaml keep"#, &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec", "--baseline", "$D/b.yaml", "--output", "$D/b.yaml"], 2, "is also the --baseline file").after("cmp b.yaml keep"),
    row("clobber: run --output is a plugin script the scenario runs", r#"guard g.sh; printf 'id: t/script\nruntime: runok\nplugins:\n  - {name: g, process: {command: [sh, %s/g.sh]}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\nexpect: {outcome: allow}\n' "$D" > s.yaml; cp g.sh keep"#, &["run", "--no-progress", "--output", "$D/g.sh", "$D/s.yaml"], 2, "--output $D/g.sh is also a file of plugin `g`").after("cmp g.sh keep"),
    row("clobber: run --write-baseline is a plugin script the scenario runs", r#"guard g.sh; printf 'id: t/script\nruntime: runok\nplugins:\n  - {name: g, process: {command: [sh, %s/g.sh]}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\nexpect: {outcome: allow}\n' "$D" > s.yaml; cp g.sh keep"#, &["run", "--no-progress", "--write-baseline", "$D/g.sh", "$D/s.yaml"], 2, "--write-baseline $D/g.sh is also a file of plugin `g`").after("cmp g.sh keep"),
    row("clobber: run --output is the scenario's snapshot", r#"mkdir sc sc/snapshots; scenario good deny 'expect: {outcome: deny}\n' > sc/s.yaml; printf -- '---\nsource: x\n---\n[]\n' > sc/snapshots/t__good.snap; cp sc/snapshots/t__good.snap keep"#, &["run", "--no-progress", "--output", "$D/sc/snapshots/t__good.snap", "$D/sc/s.yaml"], 2, "is also the scenario's snapshot").after("cmp sc/snapshots/t__good.snap keep"),
    row("clobber: run --output would be a new scenario of the folder", r#"mkdir sc; scenario good deny 'expect: {outcome: deny}\n' > sc/s.yaml"#, &["run", "--no-progress", "--output", "$D/sc/new.yaml", "$D/sc"], 2, "--output $D/sc/new.yaml is inside a scenario folder").after("test ! -e sc/new.yaml"),
    row("clobber: run --output is a hard link to the scenario", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml; ln s.yaml hard.yaml; cp s.yaml keep"#, &["run", "--no-progress", "--output", "$D/hard.yaml", "$D/s.yaml"], 2, "is also a scenario file").after("cmp s.yaml keep"),
    row("clobber: run --record-dir would write a record over a plugin script", r#"mkdir rec; guard rec/g.jsonl; printf 'id: t/both\nruntime: runok\nplugins:\n  - {name: g, process: {mock: {decision: deny}}, config: {runok_extension: {}}}\n  - {name: h, process: {command: [sh, %s/rec/g.jsonl]}, config: {runok_extension: {}}}\nturns:\n  - command: {raw: ls}\nexpect: {outcome: deny}\n' "$D" > s.yaml; cp rec/g.jsonl keep"#, &["run", "--no-progress", "--record-dir", "$D/rec", "$D/s.yaml"], 2, "--record-dir $D/rec/g.jsonl is also a file of plugin `h`").after("cmp rec/g.jsonl keep"),
    row("clobber: pack check --output would be a pack of the folder", r#"mkdir packs; cp "$R/examples/promptpack/support.pack.json" packs/"#, &["pack", "check", "--output", "$D/packs/new.pack.json", "$D/packs"], 2, "is inside a pack folder").after("test ! -e packs/new.pack.json"),
    // Item 3: `run --record-dir D` never writes outside D.
    row("record-dir: a plugin named ../../victim", r#"mkdir -p deep/rec; scenario up deny 'expect: {outcome: deny}\n' | sed 's|name: g,|name: ../../victim,|' > s.yaml"#, &["run", "--no-progress", "--record-dir", "$D/deep/rec", "$D/s.yaml"], 2, "plugin `../../victim`: its record would be $D/deep/rec/../../victim.jsonl, outside --record-dir").after("test ! -e victim.jsonl"),
    row("record-dir: a plugin named by an absolute path", r#"mkdir rec; scenario abs deny 'expect: {outcome: deny}\n' | sed "s|name: g,|name: $D/victim,|" > s.yaml"#, &["run", "--no-progress", "--record-dir", "$D/rec", "$D/s.yaml"], 2, "outside --record-dir $D/rec").after("test ! -e victim.jsonl"),
    row("record-dir: a plugin named a/b", r#"mkdir rec; scenario sub deny 'expect: {outcome: deny}\n' | sed 's|name: g,|name: a/b,|' > s.yaml"#, &["run", "--no-progress", "--record-dir", "$D/rec", "$D/s.yaml"], 2, "plugin `a/b`: its record would be").after("test ! -e rec/a"),
    row("record-dir: a plugin named after the LLM journal", r#"mkdir rec; scenario journal deny 'expect: {outcome: deny}\n' | sed 's|name: g,|name: llm.journal,|' > s.yaml"#, &["run", "--no-progress", "--record-dir", "$D/rec", "$D/s.yaml"], 2, "the LLM journal's file"),
    row("record-dir: a record that is a link out of the folder", r#"mkdir rec; ln -s ../victim.jsonl rec/g.jsonl; scenario good deny 'expect: {outcome: deny}\n' > s.yaml"#, &["run", "--no-progress", "--record-dir", "$D/rec", "$D/s.yaml"], 2, "outside --record-dir $D/rec").after("test ! -e victim.jsonl"),
    row("record-dir: a plain name still records", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml"#, &["run", "--no-progress", "--record-dir", "$D/rec", "$D/s.yaml"], 0, "PASS t/good").after("test -s rec/g.jsonl && test -s rec/llm.journal.jsonl || test -e rec/g.jsonl"),
    // Item 4: `--write-baseline F` alone keeps the reasons F holds.
    row("write-baseline: certify keeps the reasons of the file it rewrites", r#"printf 'expected_failures:\n  - {check: RUNOK-STATUS, profile: documented, reason: "kept on purpose"}\n' > b.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--write-baseline", "$D/b.yaml", "--", "$P", "mock-plugin", "--protocol", "runok-extension", "--fault", "status-uppercase"], 1, "FAIL RUNOK-STATUS").after("grep -q 'kept on purpose' b.yaml"),
    row("write-baseline: run keeps the reasons of the file it rewrites", r#"scenario bad allow 'expect: {outcome: deny}\n' > s.yaml; printf 'expected_failures:\n  - {scenario: t/bad, reason: "kept on purpose"}\n' > b.yaml"#, &["run", "--no-progress", "--write-baseline", "$D/b.yaml", "$D/s.yaml"], 1, "FAIL t/bad").after("grep -q 'kept on purpose' b.yaml"),
    row("write-baseline: certify over a file that is no baseline", r#"printf 'my notes\n' > notes.txt; cp notes.txt keep"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--write-baseline", "$D/notes.txt", "--", "sh", ENV_GUARD], 2, "--write-baseline $D/notes.txt holds something that is not a baseline").after("cmp notes.txt keep"),
    row("write-baseline: run over a certify baseline", r#"scenario bad allow 'expect: {outcome: deny}\n' > s.yaml; printf 'expected_failures:\n  - {check: RUNOK-STATUS, profile: documented, reason: "certify"}\n' > b.yaml; cp b.yaml keep"#, &["run", "--no-progress", "--write-baseline", "$D/b.yaml", "$D/s.yaml"], 2, "holds something that is not a baseline").after("cmp b.yaml keep"),
    // Item 14: `init --dir` shows control characters escaped.
    row("init: ESC in --dir is escaped in the wrote: lines", "", &["init", "--protocol", "runok-extension", "--lang", "sh", "--dir", "$D/x\x1b]0;pwn\x07\x1b[31mred\u{202e}"], 0, "wrote:").esc(),
    row("init: a newline in --dir cannot forge a line", "", &["init", "--protocol", "runok-extension", "--lang", "sh", "--dir", "$D/x\nwrote: forged"], 0, "x\\nwrote: forged"),
    // Item 15: a path a certificate cannot hold is refused before the run, named.
    row("certificate: a --covers folder holding a name that is not UTF-8", r#"mkdir cov; : > "cov/$(printf 'n\377.txt')""#, &["certify", "--protocol", "runok-extension", "--no-progress", "--covers", "$D/cov", "--certificate", "$D/cert.json", "--", "sh", ENV_GUARD], 2, "is not UTF-8, and a certificate records paths as text").absent("conformant").after("test ! -e cert.json"),
    // Issue 30: nothing aborts, nothing outlives proctor, no green without a judgement
    // Item 8: SIGQUIT, like SIGINT, SIGTERM and SIGHUP, stops proctor and every plugin (it dumped core and left 50 of 50).
    row("signal: certify, SIGINT", "", &["certify", "--protocol", "picoclaw-hook", "--no-progress", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook", "--fault", "hang"], 130, "interrupted; stopped 1 plugin process group(s)").signal(INT, Marked(2)),
    row("signal: certify, SIGTERM", "", &["certify", "--protocol", "picoclaw-hook", "--no-progress", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook", "--fault", "hang"], 143, "interrupted; stopped 1 plugin process group(s)").signal(TERM, Marked(2)),
    row("signal: certify, SIGHUP", "", &["certify", "--protocol", "picoclaw-hook", "--no-progress", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook", "--fault", "hang"], 129, "interrupted; stopped 1 plugin process group(s)").signal(HUP, Marked(2)),
    row("signal: certify, SIGQUIT", "", &["certify", "--protocol", "picoclaw-hook", "--no-progress", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook", "--fault", "hang"], 131, "interrupted; stopped 1 plugin process group(s)").signal(QUIT, Marked(2)),
    row("signal: certify one-shot, SIGQUIT", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--jobs", "1", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "runok-extension", "--fault", "hang"], 131, "interrupted; stopped 1 plugin process group(s)").signal(QUIT, Marked(2)),
    // With --jobs 3, the three plugins running at once are all stopped.
    row("signal: certify one-shot --jobs 3, SIGQUIT", r#"printf 'cases:\n  - {name: a, expect: {decision: allow}}\n  - {name: b, expect: {decision: allow}}\n  - {name: c, expect: {decision: allow}}\n' > c.yaml"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--jobs", "3", "--cases", "$D/c.yaml", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "runok-extension", "--fault", "hang"], 131, "interrupted; stopped 3 plugin process group(s)").signal(QUIT, Marked(4)),
    row("signal: load one-shot, SIGINT", "", &["load", "--protocol", "runok-extension", "--requests", "40", "--concurrency", "4", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "runok-extension", "--fault", "hang"], 130, "interrupted").signal(INT, Marked(5)),
    row("signal: load one-shot, SIGTERM", "", &["load", "--protocol", "runok-extension", "--requests", "40", "--concurrency", "4", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "runok-extension", "--fault", "hang"], 143, "interrupted").signal(TERM, Marked(5)),
    row("signal: load one-shot, SIGHUP", "", &["load", "--protocol", "runok-extension", "--requests", "40", "--concurrency", "4", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "runok-extension", "--fault", "hang"], 129, "interrupted").signal(HUP, Marked(5)),
    row("signal: load one-shot, SIGQUIT", "", &["load", "--protocol", "runok-extension", "--requests", "40", "--concurrency", "4", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "runok-extension", "--fault", "hang"], 131, "interrupted; stopped 4 plugin process group(s)").signal(QUIT, Marked(5)),
    row("signal: load pipelined, SIGQUIT", "", &["load", "--protocol", "picoclaw-hook", "--requests", "20", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook", "--fault", "hang"], 131, "interrupted; stopped 1 plugin process group(s)").signal(QUIT, Marked(2)),
    row("signal: load server processes, SIGQUIT", "", &["load", "--protocol", "promptkit-server", "--requests", "20", "--concurrency", "3", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "promptkit-server", "--fault", "hang"], 131, "interrupted; stopped 3 plugin process group(s)").signal(QUIT, Marked(4)),
    row("signal: run, SIGINT", r#"hung_scenario > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 130, "interrupted; stopped 1 plugin process group(s)").signal(INT, Marked(2)),
    row("signal: run, SIGQUIT", r#"hung_scenario > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 131, "interrupted; stopped 1 plugin process group(s)").signal(QUIT, Marked(2)),
    row("signal: certify --runtime-config, SIGQUIT", r#"hung_runtime_config > rc.yaml"#, &["certify", "--no-progress", "--jobs", "1", "--runtime-config", "$D/rc.yaml"], 131, "interrupted; stopped 1 plugin process group(s)").signal(QUIT, Marked(2)),
    row("signal: mock-provider, SIGQUIT", "", &["mock-provider", "--scenario", "scenarios/promptkit/exec-tool-success.yaml"], 0, "stopping (SIGQUIT)").signal(QUIT, Printed("http://127.0.0.1:")),
    // Item 9: a SIGKILLed proctor runs no handler; its plugins die with it (PR_SET_PDEATHSIG from the spawner thread).
    // A long-lived mock that hangs still exits at stdin EOF, so those also ignore EOF: only the death signal ends them.
    row("sigkill: certify long-lived", "", &["certify", "--protocol", "picoclaw-hook", "--no-progress", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook", "--fault", "hang", "--fault", "ignore-eof"], 137, "").signal(KILL, Marked(2)),
    row("sigkill: certify one-shot", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "runok-extension", "--fault", "hang"], 137, "").signal(KILL, Marked(2)),
    row("sigkill: certify a promptkit server", "", &["certify", "--protocol", "promptkit-server", "--no-progress", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "promptkit-server", "--fault", "hang"], 137, "").signal(KILL, Marked(2)),
    row("sigkill: load one-shot, 4 at once", "", &["load", "--protocol", "runok-extension", "--requests", "40", "--concurrency", "4", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "runok-extension", "--fault", "hang"], 137, "").signal(KILL, Marked(5)),
    row("sigkill: load server processes", "", &["load", "--protocol", "promptkit-server", "--requests", "20", "--concurrency", "3", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "promptkit-server", "--fault", "hang"], 137, "").signal(KILL, Marked(4)),
    row("sigkill: load pipelined", "", &["load", "--protocol", "picoclaw-hook", "--requests", "20", "--timeout-ms", "60000", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook", "--fault", "hang", "--fault", "ignore-eof"], 137, "").signal(KILL, Marked(2)),
    row("sigkill: run", r#"hung_scenario > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 137, "").signal(KILL, Marked(2)),
    row("sigkill: certify --runtime-config", r#"hung_runtime_config > rc.yaml"#, &["certify", "--no-progress", "--runtime-config", "$D/rc.yaml"], 137, "").signal(KILL, Marked(2)),
    // Item 10: hashing stops on a signal, and a file over 1 GiB is refused unread (an 8 GB sparse file was hashed, then "current").
    row("hash: certify --covers an 8 GB sparse file", r#"truncate -s 8G huge"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--covers", "$D/huge", "--certificate", "$D/cert.json", "--", "sh", ENV_GUARD], 2, "huge: 8589934592 bytes, more than the 1024 MiB proctor hashes"),
    row("hash: certify --covers a folder holding one", r#"mkdir dir; truncate -s 8G dir/huge; echo x > dir/small"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--covers", "$D/dir", "--certificate", "$D/cert.json", "--", "sh", ENV_GUARD], 2, "more than the 1024 MiB proctor hashes"),
    row("hash: certify --covers 1 GiB and a byte", r#"truncate -s 1073741825 big"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--covers", "$D/big", "--certificate", "$D/cert.json", "--badge", "$D/badge.json", "--", "sh", ENV_GUARD], 2, "big: 1073741825 bytes"),
    row("hash: certificate check, the script is now 8 GB", r#"certified; truncate -s 8G guard.sh"#, &["certificate", "check", "$D/cert.json"], 1, "guard.sh (argument) cannot be read"),
    row("hash: certify --covers, SIGINT while hashing", r#"truncate -s 1073741823 big"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--covers", "$D/big", "--certificate", "$D/cert.json", "--", "sh", ENV_GUARD], 130, "interrupted").absent("covers").signal(INT, Opened("big")),
    row("hash: certify --covers, SIGTERM while hashing", r#"truncate -s 1073741823 big"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--covers", "$D/big", "--certificate", "$D/cert.json", "--", "sh", ENV_GUARD], 143, "interrupted").absent("covers").signal(TERM, Opened("big")),
    row("hash: certify --covers, SIGQUIT while hashing", r#"truncate -s 1073741823 big"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--covers", "$D/big", "--certificate", "$D/cert.json", "--", "sh", ENV_GUARD], 131, "interrupted").absent("covers").signal(QUIT, Opened("big")),
    row("hash: certificate check, SIGINT while hashing", r#"certified; truncate -s 1073741823 guard.sh"#, &["certificate", "check", "$D/cert.json"], 130, "interrupted").absent("certificate").signal(INT, Opened("guard.sh")),
    row("hash: certificate check, SIGTERM while hashing", r#"certified; truncate -s 1073741823 guard.sh"#, &["certificate", "check", "$D/cert.json"], 143, "interrupted").absent("certificate").signal(TERM, Opened("guard.sh")),
    row("hash: certificate check, SIGHUP while hashing", r#"certified; truncate -s 1073741823 guard.sh"#, &["certificate", "check", "$D/cert.json"], 129, "interrupted").absent("certificate").signal(HUP, Opened("guard.sh")),
    // Item 5: minimums in the billions are capped (it aborted on allocation), and the inputs are not called schema-valid.
    row("fuzz: minItems in the billions, nested", r#"echo '{"type":"object","required":["a"],"properties":{"a":{"type":"array","minItems":3000000000,"items":{"type":"array","minItems":3000000000}}}}' > s.json"#, &["certify", "--protocol", "promptkit-exec", "--role", "tool", "--no-progress", "--fuzz", "2", "--schema", "$D/s.json", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "tool"], 0, "#/properties/a: minItems 3000000000 capped at 4096 items").absent("schema-valid inputs").mem(),
    row("fuzz: minLength in the billions", r#"echo '{"type":"object","required":["s"],"properties":{"s":{"type":"string","minLength":4000000000}}}' > s.json"#, &["certify", "--protocol", "promptkit-exec", "--role", "tool", "--no-progress", "--fuzz", "2", "--schema", "$D/s.json", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "tool"], 0, "minLength 4000000000 capped at 4096 characters").mem(),
    row("fuzz: capped strings in capped arrays", r#"echo '{"type":"object","required":["a"],"properties":{"a":{"type":"array","minItems":2000000000,"items":{"type":"string","minLength":2000000000}}}}' > s.json"#, &["certify", "--protocol", "promptkit-exec", "--role", "tool", "--no-progress", "--fuzz", "2", "--schema", "$D/s.json", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "tool"], 0, "NOT schema-valid").mem(),
    row("fuzz: capped, in JSON", r#"echo '{"type":"object","required":["a"],"properties":{"a":{"type":"array","minItems":3000000000}}}' > s.json"#, &["certify", "--protocol", "promptkit-exec", "--role", "tool", "--no-progress", "--format", "json", "--fuzz", "2", "--schema", "$D/s.json", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "tool"], 0, "generated (capped, not schema-valid) inputs").mem(),
    row("fuzz: capped, long-lived server", r#"echo '{"type":"object","required":["a"],"properties":{"a":{"type":"array","minItems":3000000000}}}' > s.json"#, &["certify", "--protocol", "promptkit-server", "--no-progress", "--fuzz", "2", "--schema", "$D/s.json", "--", "$P", "mock-plugin", "--protocol", "promptkit-server"], 0, "the schema was capped").mem(),
    row("fuzz: a schema within bounds is not capped", r#"echo '{"type":"object","required":["a"],"properties":{"a":{"type":"array","minItems":3,"items":{"type":"string","minLength":2}}}}' > s.json"#, &["certify", "--protocol", "promptkit-exec", "--role", "tool", "--no-progress", "--format", "json", "--fuzz", "2", "--schema", "$D/s.json", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "tool"], 0, "2 schema-valid inputs").absent("capped"),
    // Item 6: a render past 16 MiB is refused, naming the prompt (a 1 MB template repeating a 100 KB variable aborted).
    row("render: pack render, every profile", r#"bigpack"#, &["pack", "render", "$D/big.pack.json", "--prompt", "triage", "--vars-file", "$D/vars.yaml"], 2, "prompt `triage` renders to more than 16 MiB").mem(),
    row("render: pack render, documented", r#"bigpack"#, &["pack", "render", "$D/big.pack.json", "--prompt", "triage", "--vars-file", "$D/vars.yaml", "--profile", "documented"], 2, "prompt `triage` renders to more than 16 MiB under documented").mem(),
    row("render: pack render, promptkit", r#"bigpack"#, &["pack", "render", "$D/big.pack.json", "--prompt", "triage", "--vars-file", "$D/vars.yaml", "--profile", "promptkit@86d9f36"], 2, "prompt `triage` renders to more than 16 MiB under promptkit@86d9f36").mem(),
    row("render: pack render, promptpack-python", r#"bigpack"#, &["pack", "render", "$D/big.pack.json", "--prompt", "triage", "--vars-file", "$D/vars.yaml", "--profile", "promptpack-python@c78e36b"], 2, "prompt `triage` renders to more than 16 MiB under promptpack-python@c78e36b").mem(),
    row("render: a scenario using the pack", r#"bigpack; big_scenario > s.yaml"#, &["run", "--no-progress", "$D/s.yaml"], 2, "prompt `triage` renders to more than 16 MiB").mem(),
    // Item 16: a snapshot must compare something; a header alone passed a scenario with no `expect`.
    row("snapshot: header only", r#"scenario nox allow > s.yaml; mkdir snapshots; printf -- '---\nsource: s.yaml\n---\n' > snapshots/t__nox.snap"#, &["run", "--no-progress", "$D/s.yaml"], 2, "holds no transcript, only its header"),
    row("snapshot: an empty list", r#"scenario nox allow > s.yaml; mkdir snapshots; printf -- '---\nsource: s.yaml\n---\n[]\n' > snapshots/t__nox.snap"#, &["run", "--no-progress", "$D/s.yaml"], 2, "its transcript has no entry"),
    row("snapshot: null", r#"scenario nox allow > s.yaml; mkdir snapshots; printf -- '---\nsource: s.yaml\n---\n~\n' > snapshots/t__nox.snap"#, &["run", "--no-progress", "$D/s.yaml"], 2, "holds no transcript"),
    row("snapshot: a map", r#"scenario nox allow > s.yaml; mkdir snapshots; printf -- '---\nsource: s.yaml\n---\nk: v\n' > snapshots/t__nox.snap"#, &["run", "--no-progress", "$D/s.yaml"], 2, "holds no transcript"),
    row("snapshot: a list of scalars", r#"scenario nox allow > s.yaml; mkdir snapshots; printf -- '---\nsource: s.yaml\n---\n- 1\n- 2\n' > snapshots/t__nox.snap"#, &["run", "--no-progress", "$D/s.yaml"], 2, "no `channel` and `kind`"),
    row("snapshot: header only, json", r#"scenario nox allow > s.yaml; mkdir snapshots; printf -- '---\nsource: s.yaml\n---\n' > snapshots/t__nox.snap"#, &["run", "--no-progress", "--format", "json", "$D/s.yaml"], 2, "holds no transcript"),
    // Item 17: an interpreter refusing to start what the command names is the user's mistake (exit 1, 22 failures, before).
    row("refusal: python3 -m a missing module", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "python3", "-m", "nosuchmodule"], 2, "No module named nosuchmodule"),
    row("refusal: python3 -m, long-lived", "", &["certify", "--protocol", "picoclaw-hook", "--no-progress", "--", "python3", "-m", "nosuchmodule"], 2, "No module named nosuchmodule"),
    row("refusal: python3 -m, promptkit server", "", &["certify", "--protocol", "promptkit-server", "--no-progress", "--", "python3", "-m", "nosuchmodule"], 2, "No module named nosuchmodule"),
    row("refusal: python3 -m, promptkit exec", "", &["certify", "--protocol", "promptkit-exec", "--role", "tool", "--no-progress", "--format", "json", "--", "python3", "-m", "nosuchmodule"], 2, "No module named nosuchmodule"),
    row("refusal: python3 -m a missing submodule", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "python3", "-m", "nosuchpkg.sub"], 2, "Error while finding module specification for 'nosuchpkg.sub'"),
    row("refusal: env python3 -u -m", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "env", "A=1", "python3", "-u", "-m", "nosuchmodule"], 2, "No module named nosuchmodule"),
    row("refusal: python3 with a script word that is no path", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--cwd", "$D", "--", "python3", "noscript"], 2, "can't open file"),
    row("refusal: node with a missing entry point", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--cwd", "$D", "--", "node", "noentry"], 2, "Cannot find module"),
    row("refusal: a plugin whose own import fails is the plugin's", r#"echo 'import nosuchdep' > p.py"#, &["certify", "--protocol", "runok-extension", "--no-progress", "--", "python3", "$D/p.py"], 1, "ModuleNotFoundError"),
    row("refusal: sh -c code failing is the plugin's", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--", "sh", "-c", ". /nonexistent-proctor"], 1, "nonconformant"),
    // Item 18: a JSON-RPC error reply is a failed request (every reply one reported `errors 0`, exit 0).
    row("load: every reply an error, pipelined", r#"error_script > e.json"#, &["load", "--protocol", "picoclaw-hook", "--requests", "20", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook", "--script", "$D/e.json"], 1, "JSON-RPC error replies 20)"),
    row("load: every reply an error, server", r#"error_script > e.json"#, &["load", "--protocol", "promptkit-server", "--requests", "20", "--concurrency", "2", "--", "$P", "mock-plugin", "--protocol", "promptkit-server", "--script", "$D/e.json"], 1, "JSON-RPC error replies 20)"),
    row("load: every reply an error, one-shot", r#"printf '{"stdout":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":$ID,\\"error\\":{\\"code\\":-32000,\\"message\\":\\"no\\"}}"}' > e.json"#, &["load", "--protocol", "runok-extension", "--requests", "6", "--concurrency", "2", "--", "$P", "mock-plugin", "--protocol", "runok-extension", "--script", "$D/e.json"], 1, "JSON-RPC error replies 6)"),
    row("load: every reply an error, json", r#"error_script > e.json"#, &["load", "--protocol", "picoclaw-hook", "--requests", "20", "--format", "json", "--", "$P", "mock-plugin", "--protocol", "picoclaw-hook", "--script", "$D/e.json"], 1, "\"error_replies\": 20"),
];

/// FIFOs with no writer and endless devices: every one must be refused
/// without waiting and without reading it all.
#[rustfmt::skip]
const STREAM_ROWS: &[Row] = &[
    // BUG 37/75/80/110/111/143/188/227/258 and every other file reader: a FIFO with no writer hung for good.
    row("fifo: certify --cases", "mkfifo c.fifo", &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "$D/c.fifo", "--", "sh", ENV_GUARD], 2, "c.fifo"),
    row("fifo: certify --baseline", "mkfifo b.fifo", &["certify", "--protocol", "runok-extension", "--no-progress", "--baseline", "$D/b.fifo", "--", "sh", ENV_GUARD], 2, "b.fifo"),
    row("fifo: certify --schema", "mkfifo s.fifo", &["certify", "--protocol", "promptkit-exec", "--role", "tool", "--no-progress", "--fuzz", "2", "--schema", "$D/s.fifo", "--", "$P", "mock-plugin", "--protocol", "promptkit-exec", "--role", "tool"], 2, "s.fifo"),
    row("fifo: certify --covers", "mkfifo x.fifo", &["certify", "--protocol", "runok-extension", "--no-progress", "--covers", "$D/x.fifo", "--certificate", "$D/cert.json", "--", "sh", ENV_GUARD], 2, "x.fifo"),
    row("fifo: certify --runtime-config", "mkfifo rc.fifo", &["certify", "--no-progress", "--runtime-config", "$D/rc.fifo"], 2, "rc.fifo"),
    row("fifo: certify --pack", "mkfifo p.fifo", &["certify", "--no-progress", "--runtime-config", "examples/promptkit-runtime-config/runtime.yaml", "--pack", "$D/p.fifo"], 2, "p.fifo"),
    row("fifo: certificate check", "mkfifo c.fifo", &["certificate", "check", "$D/c.fifo"], 2, "c.fifo"),
    row("fifo: certificate check, the script is now a FIFO", "certified; rm guard.sh; mkfifo guard.sh", &["certificate", "check", "$D/cert.json"], 1, "guard.sh"),
    row("fifo: pack check", "mkfifo p.fifo", &["pack", "check", "$D/p.fifo"], 2, "p.fifo"),
    row("fifo: pack render", "mkfifo p.fifo", &["pack", "render", "$D/p.fifo", "--prompt", "x"], 2, "p.fifo"),
    row("fifo: pack render --vars-file", "mkfifo vars.fifo", &["pack", "render", SUPPORT, "--prompt", "triage", "--vars-file", "$D/vars.fifo"], 2, "vars.fifo"),
    row("fifo: mock-plugin --scenario", "mkfifo s.fifo", &["mock-plugin", "--scenario", "$D/s.fifo", "--plugin", "x"], 2, "s.fifo"),
    row("fifo: mock-provider --scenario", "mkfifo s.fifo", &["mock-provider", "--scenario", "$D/s.fifo"], 2, "s.fifo").stdin(b""),
    row("fifo: run FILE", "mkfifo s.fifo", &["run", "--no-progress", "$D/s.fifo"], 2, "s.fifo"),
    row("fifo: run DIR holding a FIFO", "mkdir sc; mkfifo sc/s.yaml", &["run", "--no-progress", "$D/sc"], 2, "s.yaml"),
    row("fifo: run --baseline", r#"scenario good deny 'expect: {outcome: deny}\n' > s.yaml; mkfifo b.fifo"#, &["run", "--no-progress", "--baseline", "$D/b.fifo", "$D/s.yaml"], 2, "b.fifo"),
    row("fifo: verify --scenario", "mkfifo s.fifo; mkdir rec", &["verify", "--scenario", "$D/s.fifo", "--record", "$D/rec"], 2, "s.fifo"),
    row("fifo: verify --record", "recorded; rm rec/g.jsonl; mkfifo rec/g.jsonl", &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec"], 2, "g.jsonl"),
    row("fifo: verify --journal", "recorded; mkfifo j.fifo", &["verify", "--scenario", "$D/s.yaml", "--journal", "$D/j.fifo"], 2, "j.fifo"),
    row("fifo: verify --record names a FIFO", "recorded; mkfifo zzz.jsonl", &["verify", "--scenario", "$D/s.yaml", "--record", "$D/zzz.jsonl"], 2, "zzz.jsonl is not a regular file"),
    // BUG 36/145/226/257/260: /dev/zero read to the ulimit ("out of memory").
    row("zero: certify --cases", "", &["certify", "--protocol", "runok-extension", "--no-progress", "--cases", "/dev/zero", "--", "sh", ENV_GUARD], 2, "/dev/zero").absent("out of memory").mem(),
    row("zero: pack render --vars-file", "", &["pack", "render", SUPPORT, "--prompt", "triage", "--vars-file", "/dev/zero"], 2, "/dev/zero").absent("out of memory").mem(),
    row("zero: run", "", &["run", "--no-progress", "/dev/zero"], 2, "/dev/zero").absent("out of memory").mem(),
    row("zero: verify --record symlinked to /dev/zero", "recorded; rm rec/g.jsonl; ln -s /dev/zero rec/g.jsonl", &["verify", "--scenario", "$D/s.yaml", "--record", "$D/rec"], 2, "g.jsonl").absent("out of memory").mem(),
    row("zero: verify --journal", "recorded", &["verify", "--scenario", "$D/s.yaml", "--journal", "/dev/zero"], 2, "/dev/zero").absent("out of memory").mem(),
    // BUG 186/187: the mock plugin read stdin without bound (runok: "out of memory"; picoclaw: abort, 134).
    // Bounded now with exit 1 ("not a runtime's request"); 2 would do as well.
    row("zero: mock-plugin runok stdin", "", &["mock-plugin", "--protocol", "runok-extension"], 2, "stdin").or_exit(1).stdin_file("/dev/zero").absent("out of memory").mem(),
    row("zero: mock-plugin picoclaw stdin", "", &["mock-plugin", "--protocol", "picoclaw-hook"], 2, "stdin").or_exit(1).stdin_file("/dev/zero").absent("out of memory").mem(),
    // Row 109: the message called a RuntimeConfig "a pack".
    row("zero: certify --runtime-config", "", &["certify", "--no-progress", "--runtime-config", "/dev/zero"], 2, "/dev/zero: is a device, not a file").absent("a pack is").mem(),
    row("zero: pack check", "", &["pack", "check", "/dev/zero"], 2, "/dev/zero: is a device, not a file").mem(),
    row("zero: certificate check", "", &["certificate", "check", "/dev/zero"], 2, "/dev/zero: is a device, not a file").mem(),
    row("zero: certificate check, the script is now /dev/zero", "certified; ln -sf /dev/zero guard.sh", &["certificate", "check", "$D/cert.json"], 1, "not a regular file").mem(),
    row("zero: verify --record /dev/zero", "recorded", &["verify", "--scenario", "$D/s.yaml", "--record", "/dev/zero"], 2, "/dev/zero is not a regular file").mem(),
];

/// What one run printed and how it ended.
struct Ran {
    /// The exit code, or 128 + the signal that ended it.
    code: Option<i32>,
    /// It was ended by a signal (`code` is 128 + its number).
    by_signal: bool,
    timed_out: bool,
    output: Vec<u8>,
}

/// A signal to send, and when: the trigger is asked with proctor's pid and its output so far.
type Signalling<'a> = Option<(rustix::process::Signal, &'a dyn Fn(u32, &[u8]) -> bool)>;

/// Runs `cmd` in its own process group with stdout+stderr captured together,
/// killing the whole group at `LIMIT`.
fn run_limited(mut cmd: Command, stdin: Input, mut signalling: Signalling<'_>) -> Ran {
    let out = tempfile::tempfile().expect("output file");
    cmd.stdout(out.try_clone().unwrap()).stderr(out.try_clone().unwrap()).process_group(0);
    match stdin {
        Input::Null => cmd.stdin(Stdio::null()),
        Input::Bytes(_) => cmd.stdin(Stdio::piped()),
        Input::File(path) => cmd.stdin(std::fs::File::open(path).expect("stdin file")),
    };
    let mut child = cmd.spawn().expect("spawn");
    if let (Input::Bytes(bytes), Some(mut pipe)) = (stdin, child.stdin.take()) {
        // A child that never reads must not block the test: write from a thread.
        std::thread::spawn(move || {
            let _ = pipe.write_all(bytes);
        });
    }
    let deadline = Instant::now() + LIMIT;
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if let Some((signal, trigger)) = signalling {
            let mut so_far = Vec::new();
            let _ = out.try_clone().and_then(|mut f| f.rewind().and_then(|()| f.read_to_end(&mut so_far)));
            if trigger(child.id(), &so_far) {
                let _ = rustix::process::kill_process(rustix::process::Pid::from_child(&child), signal);
                signalling = None;
            }
        }
        if Instant::now() >= deadline {
            timed_out = true;
            let _ = rustix::process::kill_process_group(rustix::process::Pid::from_child(&child), rustix::process::Signal::KILL);
            break child.wait().expect("wait after kill");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut out = out;
    let mut output = Vec::new();
    out.rewind().unwrap();
    out.read_to_end(&mut output).unwrap();
    use std::os::unix::process::ExitStatusExt;
    let code = status.code().or(status.signal().map(|s| 128 + s));
    Ran { code, by_signal: status.signal().is_some(), timed_out, output }
}

/// Whether process `pid` has `path` open.
fn holds_open(pid: u32, path: &Path) -> bool {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|p| p == path))
}

/// Control characters other than newline and tab, escaped: safe in an assertion message.
fn printable(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .chars()
        .map(|c| if (c.is_control() && c != '\n' && c != '\t') || c == '\u{202e}' { c.escape_default().to_string() } else { c.to_string() })
        .collect()
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || haystack.windows(needle.len()).any(|w| w == needle)
}

/// Runs one row; `Err` lists everything wrong with it.
fn check_row(row: &Row, marker: &str) -> Result<(), String> {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path().to_str().expect("UTF-8 temp dir").to_string();
    let p = proctor();
    let root = repo_root();
    let mark = format!("{marker}-{}", row.name);
    let mut problems = Vec::new();

    if !row.setup.is_empty() {
        let mut setup = Command::new("sh");
        setup
            .arg("-c")
            .arg(format!("{PRELUDE}\n{}", row.setup))
            .current_dir(&d)
            .env("D", &d)
            .env("P", p)
            .env("R", &root)
            .env("PROCTOR_TEST_MARKER", &mark);
        let ran = run_limited(setup, Input::Null, None);
        if ran.code != Some(0) {
            return Err(format!("setup failed ({:?}): {}", ran.code, printable(&ran.output)));
        }
    }

    let args: Vec<String> = row.args.iter().map(|a| a.replace("$D", &d).replace("$P", p)).collect();
    let mut cmd = if row.mem {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg("ulimit -v 4000000; exec \"$0\" \"$@\"").arg(p);
        cmd
    } else {
        Command::new(p)
    };
    cmd.args(&args).current_dir(&root).env("PROCTOR_TEST_MARKER", &mark);
    if row.bin_on_path {
        let path = std::env::var("PATH").unwrap_or_default();
        cmd.env("PATH", format!("{d}/bin:{path}"));
    }
    let trigger = |pid: u32, output: &[u8]| match row.signal {
        Some((_, Trigger::Marked(n))) => marked(&mark).len() >= n,
        Some((_, Trigger::Opened(name))) => holds_open(pid, &Path::new(&d).join(name)),
        Some((_, Trigger::Printed(text))) => contains(output, text.as_bytes()),
        None => false,
    };
    let started = Instant::now();
    let ran = run_limited(cmd, row.stdin, row.signal.map(|(signal, _)| (signal, &trigger as &dyn Fn(u32, &[u8]) -> bool)));
    let secs = started.elapsed().as_secs_f64();

    let expected = match row.or_exit {
        Some(other) => format!("{} or {other}", row.exit),
        None => row.exit.to_string(),
    };
    if ran.timed_out {
        problems.push(format!("hung: killed after {} s (expected exit {expected})", LIMIT.as_secs()));
    } else if ran.code != Some(row.exit) && (row.or_exit.is_none() || ran.code != row.or_exit) {
        let how = if ran.by_signal { " (by signal)" } else { "" };
        problems.push(format!("exit {}{how} (expected {expected})", ran.code.map_or("?".to_string(), |c| c.to_string())));
    }
    let phrase = row.phrase.replace("$D", &d);
    if !contains(&ran.output, phrase.as_bytes()) {
        problems.push(format!("missing phrase {:?}", printable(phrase.as_bytes())));
    }
    if !row.absent.is_empty() && contains(&ran.output, row.absent.as_bytes()) {
        problems.push(format!("prints {:?}", row.absent));
    }
    for never in NEVER {
        if contains(&ran.output, never.as_bytes()) {
            problems.push(format!("prints library internals {never:?}"));
        }
    }
    if row.esc {
        if ran.output.contains(&0x1b) {
            problems.push("raw ESC (0x1b) in the output".to_string());
        }
        if contains(&ran.output, "\u{202e}".as_bytes()) {
            problems.push("raw U+202E (bidi override) in the output".to_string());
        }
    }
    if !row.after.is_empty() {
        let mut after = Command::new("sh");
        after.arg("-c").arg(format!("{PRELUDE}\n{}", row.after)).current_dir(&d).env("D", &d).env("P", p).env("R", &root);
        let checked = run_limited(after, Input::Null, None);
        if checked.code != Some(0) {
            problems.push(format!("after the run, `{}` failed: {}", row.after, printable(&checked.output)));
        }
    }
    // Nothing the row started may outlive it.
    let deadline = Instant::now() + Duration::from_secs(2);
    while !marked(&mark).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left = marked(&mark);
    if !left.is_empty() {
        let names: Vec<String> = left
            .iter()
            .map(|pid| {
                let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                format!("{pid} {}", printable(&cmdline).replace('\0', " ").replace("\\u{0}", " "))
            })
            .collect();
        problems.push(format!("left {} process(es) running: {}", left.len(), names.join("; ")));
        for pid in left {
            if let Some(pid) = rustix::process::Pid::from_raw(pid as i32) {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    let head = &ran.output[..ran.output.len().min(300)];
    Err(format!("{} [{secs:.1} s]\n      output: {}", problems.join("; "), printable(head).replace('\n', "\n              ")))
}

/// Runs `rows` on `workers` threads; one entry per failing row.
fn check_table(test: &str, rows: &[Row], workers: usize) -> Vec<String> {
    assert!(Path::new(proctor()).exists());
    let names: std::collections::HashSet<&str> = rows.iter().map(|r| r.name).collect();
    assert_eq!(names.len(), rows.len(), "row names must be unique: they name the markers and the failures");
    // `PROCTOR_ROWS=a,b` runs only the rows whose names start with `a` or `b` (while working on them).
    let only = std::env::var("PROCTOR_ROWS").unwrap_or_default();
    let only: Vec<&str> = only.split(',').filter(|p| !p.is_empty()).collect();
    let rows: Vec<Row> = rows.iter().filter(|r| only.is_empty() || only.iter().any(|p| r.name.starts_with(p))).copied().collect();
    let rows = &rows[..];
    let marker = common::marker(test);
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                while let Some(row) = rows.get(next.fetch_add(1, Ordering::SeqCst)) {
                    if let Err(why) = check_row(row, &marker) {
                        let args = printable(row.args.join(" ").as_bytes());
                        failures.lock().unwrap().push((row.name, format!("  {} (`proctor {args}`)\n      {why}", row.name)));
                    }
                }
            });
        }
    });
    // In table order.
    let failures = failures.into_inner().unwrap();
    rows.iter().filter_map(|r| failures.iter().find(|(name, _)| *name == r.name).map(|(_, f)| f.clone())).collect()
}

fn assert_no_failures(rows: usize, failures: &[String]) {
    assert!(failures.is_empty(), "{} of {rows} rows failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn hostile_inputs_are_refused_precisely() {
    assert_no_failures(ROWS.len(), &check_table("hostile", ROWS, 4));
}

#[test]
fn fifos_and_endless_streams_are_refused_without_waiting_or_reading_them_all() {
    let (fifos, memory): (Vec<Row>, Vec<Row>) = STREAM_ROWS.iter().partition(|r| !r.mem);
    // A FIFO row only waits (until fixed), so they run side by side; a memory
    // row may take up to the 4 GB ulimit (until fixed), so one at a time.
    let fifo_run = std::thread::spawn(move || check_table("hostile-fifo", &fifos, fifos.len()));
    let mut failures = check_table("hostile-memory", &memory, 1);
    failures.extend(fifo_run.join().unwrap());
    assert_no_failures(STREAM_ROWS.len(), &failures);
}

/// Issue 30, item 15: a path that is not UTF-8 (`--cases`, the folder proctor
/// runs in) never ends a whole run with `path contains invalid UTF-8
/// characters` naming nothing: `--certificate`, which records paths as text,
/// refuses it before the run and names it.
#[test]
fn paths_that_are_not_utf8_are_refused_before_the_run_and_named() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let root = repo_root();
    let cases = dir.path().join(OsStr::from_bytes(b"c\xff.yaml"));
    std::fs::copy(root.join("examples/runok-extension/env_guard.cases.yaml"), &cases).unwrap();
    let certify = |cwd: &Path, cases: Option<&Path>| {
        let mut cmd = Command::new(proctor());
        cmd.args(["certify", "--protocol", "runok-extension", "--no-progress", "--certificate"]).arg(dir.path().join("cert.json"));
        if let Some(cases) = cases {
            cmd.arg("--cases").arg(cases);
        }
        cmd.arg("--").arg("sh").arg(root.join(ENV_GUARD)).current_dir(cwd);
        let out = cmd.output().unwrap();
        (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    };
    let (code, text) = certify(&root, Some(&cases));
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("c\u{fffd}.yaml (certified as `cases`) is not UTF-8, and a certificate records paths as text"), "{text}");
    assert!(!text.contains("conformant"), "refused before the run: {text}");

    let folder = dir.path().join(OsStr::from_bytes(b"d\xff"));
    std::fs::create_dir(&folder).unwrap();
    let (code, text) = certify(&folder, None);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("--certificate: the current folder") && text.contains("d\u{fffd} is not UTF-8"), "{text}");
    assert!(!text.contains("conformant"), "refused before the run: {text}");
    assert!(!dir.path().join("cert.json").exists());
}

/// Issue 30, item 1: `--output >(…)` (bash's `/dev/fd/63`, a pipe) is written
/// to, not renamed over: on main it failed after the whole run.
#[test]
fn an_output_to_a_process_substitution_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let guard = repo_root().join(ENV_GUARD);
    for (name, tail) in [("not-last", "; code=$?; wait; exit $code"), ("last", "")] {
        // As the shell's last command, proctor is exec'd and inherits the `cat`
        // as its own child: it must not take it for a plugin's escaped orphan.
        let script = format!(
            "\"$0\" certify --protocol runok-extension --no-progress --output >(cat > '{}/{name}.txt') -- sh '{}'{tail}",
            dir.path().display(),
            guard.display()
        );
        let out = Command::new("bash").arg("-c").arg(script).arg(proctor()).output().unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{name}: {text}");
        let got = dir.path().join(format!("{name}.txt"));
        let deadline = Instant::now() + Duration::from_secs(5);
        while !std::fs::read_to_string(&got).unwrap_or_default().contains("CONFORMANT") && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(std::fs::read_to_string(&got).unwrap_or_default().contains("CONFORMANT"), "{name}: the report reached the pipe's reader");
    }
}
