//! PDF plots: the SVG that `plotters` drew, converted by `svg2pdf` (with `usvg`) into a
//! vector PDF whose text is real text in the embedded (subset) font.

use super::render::FONT;
use std::path::Path;
use svg2pdf::usvg;

/// Converts SVG plots to PDF with the system's fonts, loaded once.
pub(super) struct Converter {
    options: usvg::Options<'static>,
}

impl Converter {
    /// Loads the system's fonts; fails when the plots' font is not among them (the PDF
    /// would lack its text).
    pub(super) fn new() -> Result<Self, String> {
        let mut options = usvg::Options::default();
        let fonts = options.fontdb_mut();
        fonts.load_system_fonts();
        if !fonts
            .faces()
            .any(|f| f.families.iter().any(|(name, _)| name == FONT))
        {
            return Err(format!(
                "PDF plots need the font {FONT} (Debian: fonts-dejavu-core, which \
                 scripts/setup-deps.sh installs); or leave pdf out of --figures"
            ));
        }
        fonts.set_sans_serif_family(FONT);
        Ok(Converter { options })
    }

    /// Writes `svg` as a PDF to `path`.
    pub(super) fn write(&self, svg: &str, path: &Path) -> Result<(), String> {
        let tree = usvg::Tree::from_str(svg, &self.options).map_err(|e| e.to_string())?;
        let pdf = svg2pdf::to_pdf(&tree, Default::default(), Default::default())
            .map_err(|e| e.to_string())?;
        std::fs::write(path, pdf).map_err(|e| e.to_string())
    }
}
