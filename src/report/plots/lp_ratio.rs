//! LP bound / objective against instance size (`<p>_lp_ratio`), one series per
//! formulation: the LP relaxation is the formulation's, whichever engine solved it.

use super::sets::Set;
use super::{median, Chart, Config, Puzzle};
use crate::record::Record;
use std::collections::{BTreeMap, BTreeSet};

/// Two LP bounds of one formulation and instance differ when they differ by more than this,
/// relative to the larger in magnitude (at least 1).
const LP_TOLERANCE: f64 = 1e-6;

impl Puzzle<'_> {
    /// `<p>_lp_ratio`: on the instances of `set`, the LP bound / objective of each instance
    /// against its size, one series per formulation of the set's configurations (with the
    /// look of its first configuration, best first): per instance, the median over the
    /// formulation's configurations of their ratios (each the median over the repeats that
    /// have both and a solution the verifier accepted), over those that solved the
    /// instance where any did (else a cross: the best objective found). A linear ratio
    /// axis: how tight the relaxation of each formulation is. A note says whether the
    /// engines' LP bounds of a formulation agree on each instance (`rows`, any engine, any
    /// time limit). `None` when no verified row has a nonzero objective and an LP bound.
    pub(super) fn lp_ratio(&self, set: &Set, rows: &[&Record]) -> Option<Chart> {
        let mut formulations: Vec<(&str, Vec<&Config>)> = Vec::new();
        for c in &set.configs {
            match formulations.iter_mut().find(|(f, _)| *f == c.formulation) {
                Some((_, cs)) => cs.push(c),
                None => formulations.push((&c.formulation, vec![c])),
            }
        }
        let sources = formulations
            .iter()
            .map(|(f, configs)| {
                let pts = set
                    .keys
                    .iter()
                    .filter_map(|k| {
                        let cells: Vec<_> = configs
                            .iter()
                            .filter_map(|c| self.cells.get(*c)?.get(k))
                            .filter(|cell| cell.lp_ratio.is_some())
                            .collect();
                        let ok = cells.iter().any(|cell| cell.ok);
                        let ratios: Vec<f64> = cells
                            .iter()
                            .filter(|cell| cell.ok == ok)
                            .filter_map(|cell| cell.lp_ratio)
                            .collect();
                        let size = cells.iter().find_map(|cell| cell.size)?;
                        Some((size, median(&ratios)?, ok, k.0.as_str()))
                    })
                    .collect();
                (f.to_string(), self.look(configs[0]), pts)
            })
            .collect();
        let mut chart = self.against_size(
            "lp_ratio",
            format!(
                "{}: LP bound / objective against instance size, {}",
                self.key, set.name
            ),
            sources,
            "LP bound / objective",
            false,
        )?;
        // Crosses would mark runs that failed, but the ratio of a failed run is not charged.
        chart.failed_label = "run not solved (best objective found)".into();
        let names: BTreeSet<&str> = set.keys.iter().map(|k| k.0.as_str()).collect();
        let drawn: BTreeSet<&str> = formulations.iter().map(|(f, _)| *f).collect();
        chart.notes = self.notes(set, lp_agreement(rows, &names, &drawn));
        chart.caption = set.caption.clone();
        Some(chart)
    }
}

/// Whether the engines that solved the LP relaxation of one of `formulations` on one of
/// the `instances` (by name, at any time limit) found the same bound, each engine's the
/// median over its rows: a note naming how many instances they differ on and by how much
/// at most, or saying that they agree where two engines solved one; `None` where no two
/// engines did.
fn lp_agreement(
    rows: &[&Record],
    instances: &BTreeSet<&str>,
    formulations: &BTreeSet<&str>,
) -> Option<String> {
    type Bounds<'a> = BTreeMap<(&'a str, &'a str), BTreeMap<String, Vec<f64>>>;
    let mut bounds: Bounds = BTreeMap::new();
    for r in rows {
        let Some(lp) = r.lp_bound.filter(|b| b.is_finite()) else {
            continue;
        };
        if instances.contains(r.instance.as_str()) && formulations.contains(r.formulation.as_str())
        {
            bounds
                .entry((r.formulation.as_str(), r.instance.as_str()))
                .or_default()
                .entry(r.backend.clone())
                .or_default()
                .push(lp);
        }
    }
    // Instances where two or more engines solved a formulation's LP, and those where they
    // differ, with the largest relative difference.
    let mut compared: BTreeSet<&str> = BTreeSet::new();
    let mut differ: BTreeSet<&str> = BTreeSet::new();
    let mut most: f64 = 0.0;
    for ((_, instance), engines) in bounds.iter().filter(|(_, e)| e.len() > 1) {
        compared.insert(instance);
        let medians: Vec<f64> = engines.values().filter_map(|v| median(v)).collect();
        let (lo, hi) = medians
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                (lo.min(v), hi.max(v))
            });
        let relative = (hi - lo) / lo.abs().max(hi.abs()).max(1.0);
        if relative > LP_TOLERANCE {
            differ.insert(instance);
            most = most.max(relative);
        }
    }
    let n = compared.len();
    if n == 0 {
        return None;
    }
    let instances = if n == 1 { "instance" } else { "instances" };
    Some(if differ.is_empty() {
        format!("two or more engines solved the LP on {n} {instances}: their LP bounds agree (within {LP_TOLERANCE:e}, relative)")
    } else {
        format!(
            "LP bounds of different engines differ on {} of {n} {instances} (by up to {} relative): the median is drawn",
            differ.len(),
            crate::table::significant(most)
        )
    })
}
