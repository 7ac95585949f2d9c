//! Smaller SVG text for the same drawing. `plotters` writes every element with all its
//! attributes, defaults included, and a dashed line as one `<polyline>` per dash; the SVG
//! files of a report were most of its size. [`compact`] rewrites the text that
//! [`super::render`] drew, element by element, without changing what it draws:
//!
//! * the font, the same on every text, is named once, on the root; black, the default
//!   fill, is not named on a text;
//! * `opacity="1"` (the default) is left out, and so are `stroke="none"` and its
//!   `stroke-width` on filled circles, rectangles and polygons (no stroke is the default);
//! * consecutive unfilled `<polyline>` and `<line>` elements of one stroke (the dashes of a
//!   dashed line, the grid lines, the ticks, the arms of the crosses) become one `<path>`
//!   of as many subpaths, each stroked as the element it replaces was (a point repeated,
//!   which draws nothing, left out), and a lone line becomes a path where that is shorter
//!   (a staircase of level and upright steps);
//! * tick labels met between such lines are written after their path (they do not
//!   overlap);
//! * consecutive filled markers of one fill (circles, triangles, squares, diamonds) go in a
//!   group `<g fill="…">` that gives it, each still an element of its own;
//! * in a legend line only the pieces of its sample line (lines of two points) are joined,
//!   so that its marker stays an element of its own.
//!
//! Every other group, text and hover mark stays as it was. The geometry is the same; where
//! lines are joined into one path a browser may shade a few edge pixels a little
//! differently (chromium: a few hundred of an image's 416,000, by at most a third of full
//! intensity).

/// One element of `plotters`' SVG output: its tag and attributes in order.
struct Element<'a> {
    tag: &'a str,
    attributes: Vec<(&'a str, &'a str)>,
}

/// Parses a line holding one self-closing element (`<tag a="x" b="y"/>`), as `plotters`
/// writes each; None for anything else.
fn element(line: &str) -> Option<Element<'_>> {
    let body = line.trim().strip_prefix('<')?.strip_suffix("/>")?;
    let (tag, mut rest) = body.split_once(' ')?;
    let mut attributes = Vec::new();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        let (name, after) = rest.split_once("=\"")?;
        let (value, after) = after.split_once('"')?;
        if name.contains(['<', '>', '"', ' ']) {
            return None;
        }
        attributes.push((name, value));
        rest = after;
    }
    Some(Element { tag, attributes })
}

impl Element<'_> {
    fn get(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    }

    /// The stroke of an unfilled line (`<polyline>` or `<line>`): its attributes other than
    /// the points, `fill="none"` and `opacity="1"`; None for any other element.
    fn stroke(&self) -> Option<String> {
        let geometry: &[&str] = match self.tag {
            "polyline" if self.get("fill") == Some("none") => &["points", "fill"],
            "line" => &["x1", "y1", "x2", "y2"],
            _ => return None,
        };
        let mut out = String::new();
        for (n, v) in &self.attributes {
            if geometry.contains(n) || (*n == "opacity" && *v == "1") {
                continue;
            }
            out.push_str(&format!(" {n}=\"{v}\""));
        }
        Some(out)
    }

    /// How many points a line has (2 for a `<line>`); None for any other element.
    fn points(&self) -> Option<usize> {
        match self.tag {
            "line" => Some(2),
            "polyline" => Some(self.get("points")?.split_whitespace().count()),
            _ => None,
        }
    }

    /// The line's path data: one subpath, with `H` and `V` where a segment is level or
    /// upright.
    fn path_data(&self) -> Option<String> {
        let points: Vec<(&str, &str)> = match self.tag {
            "line" => vec![
                (self.get("x1")?, self.get("y1")?),
                (self.get("x2")?, self.get("y2")?),
            ],
            _ => self
                .get("points")?
                .split_whitespace()
                .map(|p| p.split_once(','))
                .collect::<Option<_>>()?,
        };
        let (first, rest) = points.split_first()?;
        let mut d = format!("M{} {}", first.0, first.1);
        let mut at = *first;
        for &p in rest {
            // A point repeated draws nothing (the stroke's ends are butt).
            if p == at {
                continue;
            }
            if p.1 == at.1 {
                d.push_str(&format!("H{}", p.0));
            } else if p.0 == at.0 {
                d.push_str(&format!("V{}", p.1));
            } else {
                d.push_str(&format!("L{} {}", p.0, p.1));
            }
            at = p;
        }
        Some(d)
    }

    /// The fill of a filled shape (a marker: circle, rectangle or polygon, filled and not
    /// stroked); None for any other element.
    fn fill(&self) -> Option<&str> {
        let filled = matches!(self.tag, "circle" | "rect" | "polygon")
            && self.get("stroke").is_none_or(|s| s == "none");
        self.get("fill").filter(|f| filled && *f != "none")
    }

    /// The element written again without its default attributes: `opacity="1"`, and the
    /// `stroke="none"` (with its width) of a filled shape; without its fill too when
    /// `without_fill` (a group around it gives it).
    fn write(&self, without_fill: bool) -> String {
        let filled = self.fill().is_some();
        let mut out = format!("<{}", self.tag);
        for (n, v) in &self.attributes {
            let default = (*n == "opacity" && *v == "1")
                || (filled && (*n == "stroke" || *n == "stroke-width"))
                || (without_fill && *n == "fill");
            if !default {
                out.push_str(&format!(" {n}=\"{v}\""));
            }
        }
        out.push_str("/>");
        out
    }
}

/// Elements waiting to be written together.
enum Run {
    /// Unfilled lines of one stroke, to become one path: the stroke, the path data, the
    /// first line as written (kept when it is alone) and how many.
    Stroke {
        stroke: String,
        data: String,
        first: String,
        count: usize,
    },
    /// Filled shapes of one fill, to go in one group that gives it: the fill, each shape
    /// written without it, and the first as written (kept when it is alone).
    Fill {
        fill: String,
        shapes: Vec<String>,
        first: String,
    },
}

/// Writes the elements of `run`, then the texts `deferred` while it went on.
fn flush(out: &mut String, run: &mut Option<Run>, deferred: &mut String) {
    match run.take() {
        None => {}
        Some(Run::Stroke {
            stroke,
            data,
            first,
            count,
        }) => {
            // Lines of one stroke become one path; one line stays as it was unless its path
            // is shorter (a staircase of level and upright steps).
            let path = format!("<path fill=\"none\"{stroke} d=\"{data}\"/>");
            out.push_str(if count == 1 && first.len() <= path.len() {
                &first
            } else {
                &path
            })
        }
        Some(Run::Fill { first, shapes, .. }) if shapes.len() == 1 => out.push_str(&first),
        Some(Run::Fill { fill, shapes, .. }) => {
            out.push_str(&format!("<g fill=\"{fill}\">\n{}\n</g>", shapes.join("\n")))
        }
    }
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(deferred);
    deferred.clear();
}

/// The SVG text that [`super::render`] drew (with its groups and hover marks), smaller and
/// drawing the same (see the module's description).
pub(super) fn compact(svg: &str) -> String {
    // One font for every text (plotters names it on each): named once, on the root.
    let fonts: std::collections::BTreeSet<&str> = svg
        .lines()
        .filter(|l| l.starts_with("<text "))
        .map(|l| {
            l.split_once(" font-family=\"")
                .and_then(|(_, f)| f.split_once('"'))
                .map_or("", |(f, _)| f)
        })
        .collect();
    let font = match fonts.iter().next() {
        Some(f) if fonts.len() == 1 && !f.is_empty() => Some(*f),
        _ => None,
    };
    let mut out = String::with_capacity(svg.len() / 2);
    let mut run: Option<Run> = None;
    // The texts met while lines of one stroke go on (the tick labels between the ticks):
    // written after their path, which they do not overlap.
    let mut deferred = String::new();
    let (mut in_legend, mut in_text) = (false, false);
    for line in svg.lines() {
        if line.starts_with("<g class=\"legend-entry\"") {
            in_legend = true;
        } else if line.starts_with("</g>") {
            in_legend = false;
        }
        let text_line = in_text || line.starts_with("<text ");
        in_text = text_line && !line.ends_with("</text>");
        let element = if text_line { None } else { element(line) };
        let Some(e) = element else {
            let mut line = line.to_string();
            if line.starts_with("<text ") {
                // Black is the default fill, and the root names the font.
                line = line
                    .replace(" opacity=\"1\"", "")
                    .replace(" fill=\"#000000\"", "");
                if let Some(f) = font {
                    line = line.replace(&format!(" font-family=\"{f}\""), "");
                }
            } else if let (Some(f), Some(rest)) = (font, line.strip_prefix("<svg ")) {
                line = format!("<svg font-family=\"{f}\" {rest}");
            }
            if text_line && !in_legend && matches!(run, Some(Run::Stroke { .. })) {
                deferred.push_str(&line);
                deferred.push('\n');
            } else {
                flush(&mut out, &mut run, &mut deferred);
                out.push_str(&line);
                out.push('\n');
            }
            continue;
        };
        // A legend line keeps its marker an element of its own: only its sample line's
        // pieces (lines of two points) are joined.
        let joined = !in_legend || e.points() == Some(2);
        if let (Some(stroke), Some(data), true) = (e.stroke(), e.path_data(), joined) {
            match &mut run {
                Some(Run::Stroke {
                    stroke: s,
                    data: d,
                    count,
                    ..
                }) if *s == stroke => {
                    d.push_str(&data);
                    *count += 1;
                }
                _ => {
                    flush(&mut out, &mut run, &mut deferred);
                    run = Some(Run::Stroke {
                        stroke,
                        data,
                        first: e.write(false),
                        count: 1,
                    });
                }
            }
        } else if let (Some(fill), false) = (e.fill(), in_legend) {
            match &mut run {
                Some(Run::Fill {
                    fill: f, shapes, ..
                }) if f == fill => shapes.push(e.write(true)),
                _ => {
                    flush(&mut out, &mut run, &mut deferred);
                    run = Some(Run::Fill {
                        fill: fill.to_string(),
                        shapes: vec![e.write(true)],
                        first: e.write(false),
                    });
                }
            }
        } else {
            flush(&mut out, &mut run, &mut deferred);
            out.push_str(&e.write(false));
            out.push('\n');
        }
    }
    flush(&mut out, &mut run, &mut deferred);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_one_stroke_become_one_path_and_defaults_go() {
        let svg = "<svg width=\"800\" height=\"520\" xmlns=\"http://www.w3.org/2000/svg\">\n\
<line opacity=\"1\" stroke=\"#F2F2F2\" stroke-width=\"1\" x1=\"103\" y1=\"419\" x2=\"103\" y2=\"46\"/>\n\
<line opacity=\"1\" stroke=\"#F2F2F2\" stroke-width=\"1\" x1=\"91\" y1=\"300\" x2=\"700\" y2=\"300\"/>\n\
<polyline fill=\"none\" opacity=\"1\" stroke=\"#F2F2F2\" stroke-width=\"1\" points=\"1,2 3,4 3,9 \"/>\n\
<polyline fill=\"none\" opacity=\"1\" stroke=\"#000000\" stroke-width=\"1\" points=\"91,46 91,419 \"/>\n\
<circle cx=\"170\" cy=\"410\" r=\"4\" opacity=\"1\" fill=\"#0072B2\" stroke=\"none\" stroke-width=\"1\"/>\n\
<circle cx=\"170\" cy=\"410\" r=\"4\" opacity=\"1\" fill=\"none\" stroke=\"#0072B2\" stroke-width=\"2\"/>\n\
<rect x=\"0\" y=\"0\" width=\"800\" height=\"520\" opacity=\"1\" fill=\"#FFFFFF\" stroke=\"none\"/>\n\
<text x=\"400\" y=\"10\" font-family=\"DejaVu Sans\" opacity=\"1\" fill=\"#000000\">\n\
title\n\
</text>\n\
<g class=\"legend-entry\" data-series=\"0\">\n\
<polyline fill=\"none\" opacity=\"1\" stroke=\"#0072B2\" stroke-width=\"2\" points=\"1,2 3,2 \"/>\n\
<polyline fill=\"none\" opacity=\"1\" stroke=\"#0072B2\" stroke-width=\"2\" points=\"5,2 7,2 \"/>\n\
</g>\n\
</svg>\n";
        let want = "<svg font-family=\"DejaVu Sans\" width=\"800\" height=\"520\" xmlns=\"http://www.w3.org/2000/svg\">\n\
<path fill=\"none\" stroke=\"#F2F2F2\" stroke-width=\"1\" d=\"M103 419V46M91 300H700M1 2L3 4V9\"/>\n\
<path fill=\"none\" stroke=\"#000000\" stroke-width=\"1\" d=\"M91 46V419\"/>\n\
<circle cx=\"170\" cy=\"410\" r=\"4\" fill=\"#0072B2\"/>\n\
<circle cx=\"170\" cy=\"410\" r=\"4\" fill=\"none\" stroke=\"#0072B2\" stroke-width=\"2\"/>\n\
<rect x=\"0\" y=\"0\" width=\"800\" height=\"520\" fill=\"#FFFFFF\"/>\n\
<text x=\"400\" y=\"10\">\n\
title\n\
</text>\n\
<g class=\"legend-entry\" data-series=\"0\">\n\
<path fill=\"none\" stroke=\"#0072B2\" stroke-width=\"2\" d=\"M1 2H3M5 2H7\"/>\n\
</g>\n\
</svg>\n";
        assert_eq!(compact(svg), want);
    }

    #[test]
    fn filled_markers_of_one_fill_go_in_a_group_that_gives_it() {
        let svg = r##"<g class="series" data-series="1">
<polygon opacity="1" fill="#D55E00" points="103,404 98,413 109,413 "/>
<polygon opacity="1" fill="#D55E00" points="103,394 98,403 109,403 "/>
<circle cx="1" cy="2" r="4" opacity="1" fill="#0072B2" stroke="none" stroke-width="1"/>
</g>
"##;
        let want = r##"<g class="series" data-series="1">
<g fill="#D55E00">
<polygon points="103,404 98,413 109,413 "/>
<polygon points="103,394 98,403 109,403 "/>
</g>
<circle cx="1" cy="2" r="4" fill="#0072B2"/>
</g>
"##;
        assert_eq!(compact(svg), want);
    }

    #[test]
    fn tick_labels_between_ticks_follow_their_path_and_legend_markers_stay() {
        let svg = r##"<polyline fill="none" opacity="1" stroke="#000000" stroke-width="1" points="86,419 91,419 "/>
<text x="82" y="371" dy="0.5ex" text-anchor="end" font-family="DejaVu Sans" font-size="12.096774193548388" opacity="1" fill="#000000">
5
</text>
<polyline fill="none" opacity="1" stroke="#000000" stroke-width="1" points="86,371 91,371 "/>
<g class="legend-entry" data-series="2">
<polyline fill="none" opacity="1" stroke="#009E73" stroke-width="2" points="622,171 628,171 "/>
<polyline fill="none" opacity="1" stroke="#009E73" stroke-width="2" points="632,171 638,171 "/>
<polyline fill="none" opacity="1" stroke="#009E73" stroke-width="2" points="633,166 638,175 643,166 633,166 "/>
</g>
"##;
        let want = r##"<svg-less>
<path fill="none" stroke="#000000" stroke-width="1" d="M86 419H91M86 371H91"/>
<text x="82" y="371" dy="0.5ex" text-anchor="end" font-size="12.096774193548388">
5
</text>
<g class="legend-entry" data-series="2">
<path fill="none" stroke="#009E73" stroke-width="2" d="M622 171H628M632 171H638"/>
<polyline fill="none" stroke="#009E73" stroke-width="2" points="633,166 638,175 643,166 633,166 "/>
</g>
"##;
        assert_eq!(compact(svg), want.trim_start_matches("<svg-less>\n"));
    }
}
