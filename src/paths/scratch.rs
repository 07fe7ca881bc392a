//! A private scratch directory (mode 0700 under the temp directory), removed
//! with whatever it holds when dropped.

use std::os::unix::fs::DirBuilderExt;
use std::path::PathBuf;

pub struct Scratch {
    pub path: PathBuf,
}

impl Scratch {
    /// A new directory `PREFIX-PID-N` that did not exist before (up to 16
    /// names are tried): the error of the last attempt otherwise.
    pub fn new(prefix: &str) -> std::io::Result<Self> {
        let base = std::env::temp_dir();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let mut last = None;
        for attempt in 0..16u32 {
            let path = base.join(format!(
                "{prefix}-{}-{:x}",
                std::process::id(),
                nanos.wrapping_add(attempt)
            ));
            match std::fs::DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => return Ok(Scratch { path }),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| std::io::Error::other("no scratch directory")))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::Scratch;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_scratch_directory_is_private_distinct_and_gone_after_drop() {
        let a = Scratch::new("twsrt-unit").unwrap();
        let b = Scratch::new("twsrt-unit").unwrap();
        assert_ne!(a.path, b.path);
        let mode = std::fs::metadata(&a.path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        std::fs::write(a.path.join("x"), "y").unwrap();
        let path = a.path.clone();
        drop(a);
        assert!(!path.exists());
    }
}
