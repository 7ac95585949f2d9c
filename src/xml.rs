//! Escaping text for SVG and other XML, which both the puzzles' pictures and the report's
//! plots write (a module of its own, so that neither takes it from the other).

/// Escapes text for SVG and other XML: `&`, `<` and `>`.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    #[test]
    fn markup_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(super::escape("a < b & c > d"), "a &lt; b &amp; c &gt; d");
        assert_eq!(super::escape("plain"), "plain");
    }
}
