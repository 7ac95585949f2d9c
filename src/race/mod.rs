//! Racing configurations (issue 55): run the surviving candidates on one instance after
//! another and drop a candidate once a test says it is worse than the best, as F-Race
//! (Birattari, Stützle, Paquete and Varrentrapp, GECCO 2002) and irace (López-Ibáñez et
//! al., Operations Research Perspectives 2016) do. [`friedman`] holds the statistics
//! (ranks, the Friedman test, its Iman–Davenport form, Conover's post-hoc test, the exact
//! sign test), [`elimination`] the rule that uses them; docs/race.md describes the method
//! and what the synthetic races of the tests measured.

pub mod elimination;
pub mod friedman;
pub mod ladder;
pub mod state;

#[cfg(test)]
mod simulate;
