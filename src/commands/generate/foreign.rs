//! The srt output as twsrt's own or the user's: `generate -w` replaces an
//! `srt-settings.json` only when twsrt wrote the bytes there
//! ([`crate::apply::written`]) or they already are the policy's; a file
//! anyone else wrote is refused (its settings would be lost) unless
//! `--drop-foreign` asks for it. The preview says the same as a warning.

use std::path::Path;

use crate::compile::Canonical;
use crate::error::{Error, Result};
use crate::source::SourceKind;

/// The refusal for `doc`'s output when it holds bytes twsrt did not write
/// and `text` would replace them; `None` when replacing loses nothing.
fn refusal(config: &Path, doc: &Canonical, text: &str) -> Result<Option<Error>> {
    if doc.kind != SourceKind::Srt {
        return Ok(None);
    }
    let Some(existing) = crate::apply::read_existing(&doc.output)? else {
        return Ok(None);
    };
    Ok(crate::apply::written::foreign_output(
        config,
        &doc.output,
        &existing,
        text.as_bytes(),
    ))
}

/// Before `-w`: refuse to replace a foreign srt output, or with
/// `drop_foreign` say that it is replaced.
pub fn settle_output(config: &Path, doc: &Canonical, text: &str, drop_foreign: bool) -> Result<()> {
    let Some(error) = refusal(config, doc, text)? else {
        return Ok(());
    };
    if !drop_foreign {
        return Err(error);
    }
    crate::ui::warning(&format!(
        "replaces {}, which twsrt did not write (--drop-foreign)",
        doc.output.display()
    ));
    Ok(())
}

/// In the preview: the refusal `-w` would meet, as a warning.
pub fn preview_output(config: &Path, doc: &Canonical) -> Result<()> {
    if let Some(error) = refusal(config, doc, &doc.text())? {
        crate::ui::warning(&format!("generate -w will refuse: {error}"));
    }
    Ok(())
}
