//! Dolan–Moré performance profiles (`<p>_profile_<engine>`, `<p>_profile_<formulation>`,
//! and `<p>_profile_engines` for formulations that each ran on an engine of their own).

use super::{sanitize, Axis, Cell, Chart, Marker, Puzzle, Scale, Series, MIN_SECONDS};
use std::collections::{BTreeMap, BTreeSet};

impl Puzzle<'_> {
    /// The performance profiles of the puzzle, those that show something the others do
    /// not: `<p>_profile_<engine>` compares the formulations on the main engine
    /// ([`Puzzle::main_engine`]), `<p>_profile_<formulation>` the engines that ran the
    /// formulation run on the most engines (the engine comparison), and
    /// `<p>_profile_engines` formulations that each ran on one engine of their own (no
    /// engine ran two of them); only where there are at least two to compare. (Profiles of
    /// the formulations on the other engines, which ran only the comparison's few
    /// instances, would repeat the engine profile's data; they are left out.)
    pub(super) fn profiles(&self) -> Vec<Chart> {
        let backends: BTreeSet<&str> = self.main_engine().into_iter().collect();
        let formulations: BTreeSet<&str> = self.most_engines_formulation().into_iter().collect();
        let mut out = Vec::new();
        for b in &backends {
            let fs = self.formulations_on(b);
            if fs.len() < 2 {
                continue;
            }
            let series = fs
                .iter()
                .map(|f| (f.to_string(), *f, *b))
                .collect::<Vec<_>>();
            out.extend(self.profile(
                &format!("profile_{}", sanitize(b)),
                format!(
                    "{} on {b}: performance profile of the formulations",
                    self.key
                ),
                &series,
            ));
        }
        let own = self.own_engines();
        if !own.is_empty() {
            let series = own
                .iter()
                .map(|(f, b)| (format!("{f} on {b}"), *f, *b))
                .collect::<Vec<_>>();
            out.extend(self.profile(
                "profile_engines",
                format!(
                    "{}: performance profile of the formulations, each on its engine",
                    self.key
                ),
                &series,
            ));
        }
        for f in &formulations {
            let bs: Vec<&str> = self
                .cells
                .keys()
                .filter(|(g, _)| g == f)
                .map(|(_, b)| b.as_str())
                .collect();
            if bs.len() < 2 {
                continue;
            }
            let series = bs
                .iter()
                .map(|b| (b.to_string(), *f, *b))
                .collect::<Vec<_>>();
            out.extend(self.profile(
                &format!("profile_{}", sanitize(f)),
                format!("{}, {f}: performance profile of the backends", self.key),
                &series,
            ));
        }
        out
    }

    /// A Dolan–Moré profile over the instances that every series ran: for each series, the
    /// fraction of the instances it solved within a factor τ of the fastest series on that
    /// instance, as a step line against τ (log₂ axis). A failure never counts as solved.
    fn profile(&self, stem: &str, title: String, series: &[(String, &str, &str)]) -> Option<Chart> {
        let runs: Vec<&BTreeMap<String, Cell>> = series
            .iter()
            .map(|(_, f, b)| self.cells.get(&(f.to_string(), b.to_string())))
            .collect::<Option<_>>()?;
        let instances: Vec<&String> = runs[0]
            .keys()
            .filter(|i| runs.iter().all(|r| r.contains_key(*i)))
            .collect();
        if instances.is_empty() {
            return None;
        }
        // ratios[s] = performance ratios of series s, over the instances (infinite: failed).
        let mut ratios = vec![Vec::with_capacity(instances.len()); runs.len()];
        for i in &instances {
            let times: Vec<Option<f64>> = runs
                .iter()
                .map(|r| {
                    let c = &r[*i];
                    (c.ok && c.seconds.is_finite()).then(|| c.seconds.max(MIN_SECONDS))
                })
                .collect();
            let best = times
                .iter()
                .flatten()
                .copied()
                .fold(f64::INFINITY, f64::min);
            for (s, t) in times.iter().enumerate() {
                ratios[s].push(t.map_or(f64::INFINITY, |t| t / best));
            }
        }
        let max_ratio = ratios
            .iter()
            .flatten()
            .copied()
            .filter(|r| r.is_finite())
            .fold(1.0, f64::max);
        // Up to a power of two with some room after the last step.
        let k = (max_ratio * 1.1).log2().ceil().max(1.0);
        let x_hi = 2f64.powf(k) * 1.001;
        let n = instances.len() as f64;
        let series = series
            .iter()
            .zip(&ratios)
            .map(|((name, f, b), rs)| {
                let (color, _) = self.look(f, b);
                let mut finite: Vec<f64> = rs.iter().copied().filter(|r| r.is_finite()).collect();
                finite.sort_by(f64::total_cmp);
                let at_one = finite.iter().filter(|&&r| r <= 1.0).count();
                let mut line = vec![(1.0, at_one as f64 / n)];
                let mut count = at_one;
                for &r in finite.iter().skip(at_one) {
                    let before = count as f64 / n;
                    count += 1;
                    line.push((r, before));
                    line.push((r, count as f64 / n));
                }
                line.push((x_hi, count as f64 / n));
                Series {
                    name: name.clone(),
                    color,
                    marker: Marker::None,
                    points: vec![],
                    failed: vec![],
                    line,
                    dashed: false,
                    tips: Vec::new(),
                }
            })
            .collect();
        Some(Chart {
            stem: format!("{}_{stem}", self.stem),
            title,
            x: Axis {
                label: "performance ratio τ = time / best time (log₂)".into(),
                lo: 1.0,
                hi: x_hi,
                scale: Scale::Log(2.0),
                integer: false,
            },
            y: Axis {
                label: format!(
                    "fraction of the {} instances with ratio ≤ τ",
                    instances.len()
                ),
                lo: 0.0,
                hi: 1.04,
                scale: Scale::Linear,
                integer: false,
            },
            series,
            failed_label: String::new(),
            note: None,
        })
    }
}
