//! `--format html` in a real browser: headless Chromium loads the report of a broken plugin from
//! `file://` and the test reads the rendered DOM (the verdict, every check id, a failure's evidence
//! after a real click and after keyboard alone), at a wide and a narrow window, and a hostile
//! plugin's output stays text. Set PROCTOR_HTML_SCREENSHOTS=DIR to keep screenshots to look at.

mod common;
mod webdriver;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use webdriver::Browser;

const TAB: &str = "\u{E004}";
const ENTER: &str = "\u{E007}";

/// Runs `proctor certify --format html --output FILE` and returns the exit code.
fn certify_html(flags: &[&str], plugin: &[String], file: &Path) -> i32 {
    let out = Command::new(common::proctor())
        .current_dir(common::repo_root())
        .args(["certify", "--no-progress", "--format", "html", "--output"])
        .arg(file)
        .args(flags)
        .arg("--")
        .args(plugin)
        .output()
        .expect("run proctor");
    assert!(out.stdout.is_empty(), "--output FILE writes nothing to stdout");
    assert!(file.is_file(), "no HTML report at {}: {}", file.display(), String::from_utf8_lossy(&out.stderr));
    out.status.code().unwrap_or(-1)
}

/// Whether another result of `report` could not be tested because `check` failed (same profile).
fn blocks_others(report: &Value, check: &Value) -> bool {
    report["checks"].as_array().unwrap().iter().any(|o| o["detail"]["blocked_by"] == check["id"] && o["profile"] == check["profile"])
}

fn strings(value: Value) -> Vec<String> {
    value.as_array().expect("an array").iter().map(|v| v.as_str().expect("a string").to_string()).collect()
}

/// Scrolls the first verdict cell of the matrix (a `td` of its first row) into view inside its
/// table box, then says where it lies: `[left, right, window width, what is drawn at its centre]`.
/// The sticky first column stays in view while the box scrolls, so it must leave room for the cell.
fn first_verdict_cell(browser: &Browser) -> Value {
    browser.eval(
        "const cell = document.querySelector('table.matrix tbody tr td:last-child'); \
         cell.closest('.scroll').scrollIntoView(); cell.scrollIntoView({block: 'center', inline: 'end'}); \
         const r = cell.getBoundingClientRect(); \
         const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2); \
         return [r.left, r.right, window.innerWidth, cell.contains(top) ? 'the cell' : (top ? top.outerHTML.slice(0, 80) : 'nothing')]",
        json!([]),
    )
}

/// Asserts the first verdict cell of the matrix can be read at this width.
fn assert_first_verdict_cell_visible(browser: &Browser, page: &str) {
    let seen = first_verdict_cell(browser);
    let (left, right, width) = (seen[0].as_f64().unwrap(), seen[1].as_f64().unwrap(), seen[2].as_f64().unwrap());
    assert!(left >= 0.0 && right <= width, "{page}: the verdict cell lies outside the window: {seen}");
    assert_eq!(seen[3], json!("the cell"), "{page}: the verdict cell is covered: {seen}");
}

fn screenshot(browser: &Browser, name: &str) {
    if let Some(dir) = std::env::var_os("PROCTOR_HTML_SCREENSHOTS") {
        browser.screenshot(&PathBuf::from(dir).join(name));
    }
}

#[test]
fn the_html_report_of_a_broken_plugin_reads_right_in_a_browser() {
    if !webdriver::available("the_html_report_of_a_broken_plugin_reads_right_in_a_browser") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    // A plugin whose replies carry both `result` and `error`: many checks fail under both profiles.
    let plugin = common::mock("picoclaw-hook", &["--fault", "both-result-error"]);
    let page = dir.path().join("report.html");
    assert_eq!(certify_html(&["--protocol", "picoclaw-hook"], &plugin, &page), 1);
    let (_, report, _) = common::certify_json(&["--protocol", "picoclaw-hook"], &plugin);
    let hostile_page = dir.path().join("hostile.html");
    let hostile = [
        "sh".to_string(),
        "-c".to_string(),
        "cat >/dev/null; echo '<img src=x onerror=window.pwned=2>' >&2; printf '%s\\n' '</pre><script>window.pwned=1</script>'".to_string(),
    ];
    assert_eq!(certify_html(&["--protocol", "runok-extension"], &hostile, &hostile_page), 1);

    // A plugin that never flushes keeps proctor waiting for its deadlines: certify it meanwhile.
    let stuck_page = dir.path().join("no-flush.html");
    let stuck_run = {
        let (stuck, page) = (common::mock("picoclaw-hook", &["--fault", "no-flush"]), stuck_page.clone());
        std::thread::spawn(move || certify_html(&["--protocol", "picoclaw-hook"], &stuck, &page))
    };

    let browser = Browser::start(1280, 1000);
    let (group, root) = (browser.group(), browser.root.path().to_path_buf());
    browser.open(&page);
    screenshot(&browser, "wide.png");

    // The verdict, overall and per profile, as rendered.
    let verdict = browser.rendered_text(&browser.find(".verdict"));
    assert!(verdict.contains("nonconformant"), "the verdict reads {verdict:?}");
    let per_profile = browser.rendered_text(&browser.find("ul.profiles"));
    for (profile, verdict) in report["profile_verdicts"].as_object().expect("profile verdicts") {
        assert!(per_profile.contains(&format!("{profile} ✗ {}", verdict.as_str().unwrap())), "{profile}: {per_profile:?}");
    }
    let exchanges = browser.rendered_text(&browser.find(".exchanges"));
    assert_eq!(exchanges, report["summary"]["exchanges"].to_string());

    // Every check id of the report has its row in the matrix, and nothing else does.
    let expected: BTreeSet<String> = report["checks"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_string()).collect();
    let shown = strings(
        browser.eval("return [...document.querySelectorAll('table.matrix tbody th[scope=row] code')].map(e => e.innerText)", json!([])),
    );
    assert_eq!(shown.iter().cloned().collect::<BTreeSet<_>>(), expected);

    // A failing cell, clicked, opens its failure and shows the bytes received. The page numbers
    // results as the JSON report lists them, so the cell is this very result's.
    let (index, failure) = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .find(|(_, c)| c["status"] == "fail" && c["evidence"]["received"].is_string() && !blocks_others(&report, c))
        .expect("a failure with evidence, folded (it blocks no other check)");
    let (id, received) = (failure["id"].as_str().unwrap(), failure["evidence"]["received"].as_str().unwrap());
    let target = format!("f{index}");
    let link = browser.find(&format!("table.matrix tr[data-check='{id}'] td[data-status='fail'] a[href='#{target}']"));
    let evidence = browser.find(&format!("details[id='{target}'] pre[data-kind='received']"));
    assert_eq!(browser.rendered_text(&evidence), "", "the evidence shows before the failure is opened");
    browser.click(&link);
    let opened = browser.rendered_text(&evidence);
    let first_line = received.lines().next().expect("received bytes");
    assert!(opened.contains(first_line), "after the click the evidence reads {opened:?}, not {first_line:?}");
    assert_eq!(
        browser.eval("return document.activeElement.parentElement.id", json!([])),
        json!(target),
        "the click moves focus to the failure"
    );
    screenshot(&browser, "wide-opened.png");

    // Keyboard alone: Tab to the first summary of a failure with evidence, Enter opens it.
    browser.open(&page);
    let mut presses = 0;
    let on_evidence = "const a = document.activeElement; return a.matches('details.problem:not([open]) > summary') && a.parentElement.querySelector('pre.evidence') !== null";
    while browser.eval(on_evidence, json!([])) != json!(true) {
        presses += 1;
        assert!(presses < 500, "Tab never reaches a failure's summary");
        browser.press(TAB);
    }
    let first = browser.eval("return document.activeElement.parentElement.id", json!([])).as_str().unwrap().to_string();
    let evidence = browser.find(&format!("details[id='{first}'] pre.evidence"));
    assert_eq!(browser.rendered_text(&evidence), "");
    browser.press(ENTER);
    assert!(!browser.rendered_text(&evidence).is_empty(), "Enter on the summary did not show the evidence");

    // A plugin that never flushes: the checks it kept from being tested are listed under the
    // failure to fix, which is open, and each one's matrix cell leads to its place in that list.
    assert_eq!(stuck_run.join().expect("the no-flush certification"), 1);
    browser.open(&stuck_page);
    screenshot(&browser, "no-flush-wide.png");
    // Every matrix cell marked untestable, and where its link leads.
    let cells = browser.eval(
        "const heads = [...document.querySelectorAll('table.matrix thead th')].map(th => th.innerText); \
         return [...document.querySelectorAll('table.matrix td')].filter(td => td.querySelector('.s-untestable')).map(td => { \
           const id = td.parentElement.dataset.check, profile = heads[td.cellIndex]; \
           const entry = document.querySelector(td.querySelector('a').getAttribute('href')); \
           const group = entry && entry.closest('div.blocked'); \
           const cause = group && document.querySelector(group.querySelector('p a').getAttribute('href')); \
           return [id, profile, entry !== null && entry.offsetParent !== null && entry.innerText.includes(id), \
                   group !== null && group.dataset.profile === profile, \
                   cause !== null && cause.open && cause.dataset.check === group.dataset.blocker && cause.dataset.profile === profile, \
                   document.querySelectorAll(`details.problem[data-check='${id}'][data-profile='${profile}']`).length]; })",
        json!([]),
    );
    let cells = cells.as_array().expect("cells");
    for cell in cells {
        assert_eq!(
            cell.as_array().unwrap()[2..],
            [json!(true), json!(true), json!(true), json!(0)],
            "[check, profile, listed, under its profile, under its open cause, own entries]: {cell}"
        );
    }
    let untestable = cells.len();
    assert!(untestable >= 20, "the no-flush plugin left only {untestable} checks untestable");
    // Drawn apart from the failures: its own status, its own colour, and the counts keep them apart.
    let drawn = browser.eval(
        "const style = s => getComputedStyle(document.querySelector(s)).color;          return [document.querySelectorAll('table.matrix td[data-status=untestable]').length,                  document.querySelectorAll('table.matrix td[data-status=fail]').length,                  style('table.matrix td[data-status=untestable] .s') !== style('table.matrix td[data-status=fail] .s'),                  document.querySelector('ul.counts li.untestable').innerText]",
        json!([]),
    );
    let drawn = drawn.as_array().expect("drawn");
    assert_eq!(drawn[0], json!(untestable), "{drawn:?}");
    assert_eq!(drawn[1], json!(2), "the one cause, under each profile: {drawn:?}");
    assert_eq!(drawn[2], json!(true), "untestable is drawn in the colour of a failure: {drawn:?}");
    assert_eq!(drawn[3], json!(format!("{untestable} untestable")), "{drawn:?}");

    // A narrow window: the page never scrolls sideways; the matrix scrolls inside its own box.
    browser.resize(400, 800);
    browser.open(&page);
    let widths = browser.eval(
        "const m = document.querySelector('table.matrix').parentElement; return [document.documentElement.scrollWidth, window.innerWidth, m.scrollWidth, m.clientWidth]",
        json!([]),
    );
    let w: Vec<u64> = widths.as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert!(w[1] <= 420, "the window is not narrow: {w:?}");
    assert!(w[0] <= w[1], "the page is wider ({}) than the window ({})", w[0], w[1]);
    assert!(w[2] > w[3], "the matrix does not scroll inside its box at this width: {w:?}");
    screenshot(&browser, "narrow.png");
    assert_first_verdict_cell_visible(&browser, "certify");
    screenshot(&browser, "narrow-scrolled.png");

    // The pack grid at the same width: its first column (the pack) stays in view and leaves room
    // for the verdicts it slides over.
    let packs = dir.path().join("packs.html");
    let out = Command::new(common::proctor())
        .current_dir(common::repo_root())
        .args(["pack", "check", "--format", "html", "--output"])
        .arg(&packs)
        .arg("examples/promptpack")
        .output()
        .expect("run proctor pack check");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    browser.open(&packs);
    screenshot(&browser, "packs-narrow.png");
    assert_first_verdict_cell_visible(&browser, "pack check");
    screenshot(&browser, "packs-narrow-scrolled.png");

    // A plugin writing markup: nothing runs, nothing is added to the page, the bytes read as text.
    browser.resize(1280, 1000);
    browser.open(&hostile_page);
    let state = browser.eval("return [typeof window.pwned, document.scripts.length, document.images.length]", json!([]));
    assert_eq!(state, json!(["undefined", 1, 0]), "the plugin's output became markup");
    let summary = browser.find("details.problem summary");
    browser.click(&summary);
    let received = browser.rendered_text(&browser.find("details.problem[open] pre[data-kind='received']"));
    assert!(received.contains("</pre><script>window.pwned=1</script>"), "the plugin's bytes are not shown as text: {received:?}");
    let command = browser.rendered_text(&browser.find("code.command"));
    assert!(command.contains("<img src=x onerror=window.pwned=2>"), "{command:?}");

    drop(browser);
    let ended = Instant::now();
    loop {
        let alive = Browser::survivors(&root, group);
        if alive.is_empty() {
            break;
        }
        assert!(ended.elapsed() < Duration::from_secs(15), "browser processes outlived the test: {alive:#?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}
