//! Finding scenario files: every `*.yaml` under the given paths, sorted, so
//! test names are stable.

use std::path::{Path, PathBuf};

/// Every scenario file under `paths` (files are taken as given).
pub fn discover(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut found)?;
        } else {
            found.push(p.clone());
        }
    }
    found.sort();
    found.dedup();
    Ok(found)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "snapshots") {
                walk(&path, found)?;
            }
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            found.push(path);
        }
    }
    Ok(())
}
