//! Finding scenario files: every `*.yaml` under the given paths, sorted, so
//! test names are stable.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Every scenario file under `paths` (files are taken as given).
///
/// Links are followed (a shared folder of scenarios linked into several
/// suites is common), but each folder is searched once and each file taken
/// once, whatever the paths that reach it: a link back up the tree is a
/// cycle to stop at, not thousands of copies of the same scenarios.
pub fn discover(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut seen_dirs = HashSet::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut found, &mut seen_dirs)?;
        } else {
            found.push(p.clone());
        }
    }
    found.sort();
    found.dedup();
    // The same file by two names (a link to a file, a linked folder): the
    // first name in sorted order stands for it.
    let mut seen_files = HashSet::new();
    found.retain(|f| seen_files.insert(std::fs::canonicalize(f).unwrap_or_else(|_| f.clone())));
    Ok(found)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>, seen: &mut HashSet<PathBuf>) -> std::io::Result<()> {
    if !seen.insert(std::fs::canonicalize(dir)?) {
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
    // Sorted, so the name that stands for a folder reached twice is stable.
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "snapshots") {
                walk(&path, found, seen)?;
            }
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            found.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_back_up_the_tree_is_searched_once() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/a.yaml"), "id: t/a").unwrap();
        std::os::unix::fs::symlink("..", dir.path().join("sub/loop")).unwrap();
        std::os::unix::fs::symlink("a.yaml", dir.path().join("sub/b.yaml")).unwrap();
        let found = discover(&[dir.path().to_path_buf()]).unwrap();
        assert_eq!(found, [dir.path().join("sub/a.yaml")]);
    }
}
