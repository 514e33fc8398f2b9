//! Small helpers shared by the tools.
//!
//! Design note: files are written through `tempfile`: the data goes to a uniquely named file in
//! the target's folder, which is flushed and then renamed over the target, so a crash leaves the
//! old file or the new one, never a mixture. A writer killed in mid-write can leave its temporary
//! behind (named `.tmp…`, never the target's name); it is never mistaken for the file itself.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The folder a file at `path` lives in (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `bytes` to `path` atomically: either the old contents or the new ones, never a mixture.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if path.file_name().is_none() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "path has no file name",
        ));
    }
    let dir = folder_of(path);
    let mut file = tempfile::NamedTempFile::new_in(&dir)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    if let Ok(d) = std::fs::File::open(&dir) {
        // Persist the rename itself; not all platforms allow syncing a directory.
        let _ = d.sync_all();
    }
    Ok(())
}

/// Checks, before any long work, that a file can be written at `path`: it has a file name, is
/// not a folder, and its folder exists and takes new files. The error names the path.
pub fn check_writable(path: &Path) -> Result<(), String> {
    let shown = path.display();
    if path.file_name().is_none() || path.is_dir() {
        return Err(format!("{shown}: not a file name"));
    }
    let dir = folder_of(path);
    if !dir.is_dir() {
        return Err(format!(
            "{shown}: the folder {} does not exist",
            dir.display()
        ));
    }
    tempfile::NamedTempFile::new_in(&dir)
        .map(drop)
        .map_err(|e| format!("{shown}: cannot write in {}: {e}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_contents_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("file.txt");
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn an_unwritable_place_is_refused_before_the_work() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_writable(&dir.path().join("new.pgn")).is_ok());
        let missing = dir.path().join("missing/new.pgn");
        let err = check_writable(&missing).unwrap_err();
        assert!(err.contains("does not exist"), "{err}");
        assert!(
            check_writable(dir.path()).is_err(),
            "a folder is not a file"
        );
        assert!(write_atomically(&missing, b"x").is_err());
    }
}
