//! A headless Chromium driven through chromedriver's W3C WebDriver API, spoken with `curl`
//! (no HTTP client crate for one test). Both processes die with the [`Browser`], even when the test
//! panics: chromedriver runs in its own process group, which Chromium joins, and dropping the
//! browser ends the session, then kills the whole group.

use std::io::Write;
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The flags this closed-network machine needs: without them Chromium waits on the network.
const FLAGS: [&str; 9] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
];

/// Standard base64 (WebDriver's screenshots) to bytes; characters outside the alphabet are skipped.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let (mut out, mut bits, mut held) = (Vec::with_capacity(text.len() / 4 * 3), 0u32, 0u32);
    for sextet in text.bytes().filter_map(value) {
        bits = bits << 6 | u32::from(sextet);
        held += 6;
        if held >= 8 {
            held -= 8;
            out.push((bits >> held) as u8);
        }
    }
    out
}

/// An element reference as WebDriver returns it.
pub const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Whether the browser is installed; when it is not, says so loudly, or fails when
/// `PROCTOR_REQUIRE_BROWSER=1` (CI installs it, so a missing browser there is a broken CI).
pub fn available(test: &str) -> bool {
    if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
        return true;
    }
    let required = std::env::var("PROCTOR_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "{test}: PROCTOR_REQUIRE_BROWSER=1 but {CHROMIUM} or {CHROMEDRIVER} is missing (apt-get install chromium chromium-driver)"
    );
    eprintln!(
        "\n!!!!!!!! SKIPPED {test}: {CHROMIUM} or {CHROMEDRIVER} is not installed; the HTML report was NOT checked in a browser !!!!!!!!\n"
    );
    false
}

/// A chromedriver and the one Chromium session it drives.
pub struct Browser {
    driver: Child,
    base: String,
    session: Option<String>,
    /// Chromium's profile and configuration (its crash handler's database too): unique to this
    /// browser, so every process it starts names it on its command line.
    pub root: tempfile::TempDir,
}

impl Browser {
    /// Starts chromedriver on a free port and a headless Chromium of `width` x `height`.
    pub fn start(width: u32, height: u32) -> Browser {
        let root = tempfile::tempdir().expect("a folder for the browser");
        let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .env("HOME", root.path())
            .env("XDG_CONFIG_HOME", root.path().join("config"))
            .env("XDG_CACHE_HOME", root.path().join("cache"))
            .process_group(0)
            .spawn()
            .expect("start chromedriver");
        let mut browser = Browser { driver, base: format!("http://127.0.0.1:{port}"), session: None, root };
        let started = Instant::now();
        while browser.call("GET", "/status", None).ok().and_then(|v| v["ready"].as_bool()) != Some(true) {
            assert!(started.elapsed() < Duration::from_secs(30), "chromedriver did not become ready on port {port}");
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut args: Vec<String> = FLAGS.iter().map(|f| f.to_string()).collect();
        args.push(format!("--user-data-dir={}", browser.root.path().join("profile").display()));
        args.push(format!("--window-size={width},{height}"));
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args},
        }}});
        let session = browser.call("POST", "/session", Some(capabilities)).expect("a Chromium session");
        browser.session = Some(session["sessionId"].as_str().expect("a session id").to_string());
        browser
    }

    /// One WebDriver command; the command's `value`, or its error as text.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let mut curl = Command::new("curl");
        curl.args(["-sS", "--max-time", "60", "-X", method, "-H", "Content-Type: application/json"]);
        if body.is_some() {
            curl.args(["--data-binary", "@-"]);
        }
        let mut child = curl
            .arg(format!("{}{path}", self.base))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run curl: {e}"))?;
        let stdin = child.stdin.take();
        if let (Some(body), Some(mut stdin)) = (body, stdin) {
            stdin.write_all(body.to_string().as_bytes()).map_err(|e| format!("curl {method} {path}: {e}"))?;
        }
        let out = child.wait_with_output().map_err(|e| format!("curl {method} {path}: {e}"))?;
        if !out.status.success() {
            return Err(format!("curl {method} {path}: {}", String::from_utf8_lossy(&out.stderr)));
        }
        let reply: Value = serde_json::from_slice(&out.stdout).map_err(|e| format!("{method} {path}: not JSON ({e})"))?;
        match reply["value"].get("error") {
            Some(error) => Err(format!("{method} {path}: {error}: {}", reply["value"]["message"])),
            None => Ok(reply["value"].clone()),
        }
    }

    /// A command of this browser's session; panics with the WebDriver error.
    pub fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let session = self.session.as_deref().expect("a session");
        self.call(method, &format!("/session/{session}{path}"), body).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Opens a local file.
    pub fn open(&self, file: &Path) {
        self.command("POST", "/url", Some(json!({"url": format!("file://{}", file.display())})));
    }

    /// Runs `script` (a function body; `arguments[0..]` are `args`) in the page, returning its value.
    pub fn eval(&self, script: &str, args: Value) -> Value {
        self.command("POST", "/execute/sync", Some(json!({"script": script, "args": args})))
    }

    /// The first element `css` selects.
    pub fn find(&self, css: &str) -> String {
        let found = self.command("POST", "/element", Some(json!({"using": "css selector", "value": css})));
        found[ELEMENT].as_str().unwrap_or_else(|| panic!("no element for {css}: {found}")).to_string()
    }

    /// The text of an element as rendered: empty while it is hidden (inside a closed `<details>`).
    pub fn rendered_text(&self, element: &str) -> String {
        self.command("GET", &format!("/element/{element}/text"), None).as_str().unwrap_or_default().to_string()
    }

    /// A real click (the browser moves the pointer there and presses), not a script's `click()`.
    pub fn click(&self, element: &str) {
        self.command("POST", &format!("/element/{element}/click"), Some(json!({})));
    }

    /// Presses and releases keys as a keyboard would, on whatever has the focus.
    pub fn press(&self, key: &str) {
        let actions = json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key},
        ]}]});
        self.command("POST", "/actions", Some(actions));
    }

    /// Resizes the window.
    pub fn resize(&self, width: u32, height: u32) {
        self.command("POST", "/window/rect", Some(json!({"width": width, "height": height})));
    }

    /// Saves a screenshot of the viewport as PNG to `path`.
    pub fn screenshot(&self, path: &Path) {
        let png = self.command("GET", "/screenshot", None);
        std::fs::write(path, base64_decode(png.as_str().unwrap_or_default())).expect("write the screenshot");
    }

    /// The live processes of chromedriver's group `group`, or with `root` on their command line.
    pub fn survivors(root: &Path, group: u32) -> Vec<(i32, String)> {
        let mut alive = Vec::new();
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else { continue };
            let cmdline = String::from_utf8_lossy(&std::fs::read(entry.path().join("cmdline")).unwrap_or_default()).replace('\0', " ");
            let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            // After the parenthesised name in /proc/PID/stat: state, parent, process group.
            let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or_default().split_whitespace().collect();
            let zombie = fields.first() == Some(&"Z");
            let in_group = fields.get(2).and_then(|g| g.parse::<u32>().ok()) == Some(group);
            if !zombie && (in_group || cmdline.contains(&root.display().to_string())) {
                alive.push((pid, cmdline));
            }
        }
        alive
    }

    /// chromedriver's process group (its pid): what [`Drop`] kills.
    pub fn group(&self) -> u32 {
        self.driver.id()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(session) = self.session.take() {
            let _ = self.call("DELETE", &format!("/session/{session}"), None);
        }
        // Whatever the session left, and chromedriver itself; then any helper that left the group
        // (Chromium's crash handler starts its own), found by the folder it was given.
        use rustix::process::{Pid, Signal, kill_process, kill_process_group};
        if let Some(group) = Pid::from_raw(self.driver.id() as i32) {
            let _ = kill_process_group(group, Signal::KILL);
        }
        let _ = self.driver.wait();
        for (pid, _) in Browser::survivors(self.root.path(), self.driver.id()) {
            if let Some(pid) = Pid::from_raw(pid) {
                let _ = kill_process(pid, Signal::KILL);
            }
        }
    }
}
