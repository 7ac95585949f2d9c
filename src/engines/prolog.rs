//! `prolog`: SWI-Prolog (`swipl`, Debian's swi-prolog-nox) in a child process, on a
//! constraint program written as a plain Prolog program, the way chapter 7 of the report
//! describes its CP model (Section 7.2.2 and 7.3.1, after Gregor et al.): a list of houses
//! with their attributes, and one goal per clue, in the order the [`Heuristics`] give.
//!
//! * **The program** ([`program`]), written to a temporary file per solve: the houses are a
//!   list of `h/K` terms, one argument per permutation group of the [`CpModel`] (Zebra: per
//!   attribute), whose value is the index of the group's variable that sits in that house
//!   (Zebra: the value of the attribute there). Each constraint becomes one goal that
//!   places what it names and checks it: `x = y` is `member(h(..X..Y..), Hs)`, `x = v` is
//!   `nth1(v+1, Hs, h(..X..))`, `y = x + 1` is `left_of(h(..X..), h(..Y..), Hs)`, `|x − y|
//!   = 1` is `next_to/3` (either way round), another offset goes through `nth1/3` and
//!   arithmetic. A negated constraint places both sides with `nth1/3` and tests their
//!   house numbers (`I =\= J`, `J =\= I + d`, `abs(I - J) =\= 1`), so that no negation as
//!   failure meets an unbound house. After the clues, `complete/1` fills every group's
//!   houses still empty with the values not yet placed, in every order, and rejects a
//!   group that holds a value twice: that is generate and test, with nothing propagated;
//!   the permutation rule of the model is checked only there, as a plain Prolog program
//!   of the puzzle does.
//! * **Heuristics**: `none`, `1`, `12` and `123` are the clue orders of [`order`] (the
//!   report's Table 7.5; the same orders the `propagate` engine takes its clues in).
//!   `root` (propagate's default: every clue posted at once) means nothing to a program
//!   that runs its goals in order: the engine applies `none` and the row says so.
//! * **Inferences**: SWI-Prolog's logical inferences (`statistics(inferences, _)`, the
//!   unit of the report's Table 7.5) taken right before and right after the search
//!   (building the houses, the clue goals, `complete/1`, and the few calls that count the
//!   solutions), not loading, parsing or printing; the cost of the `statistics/2` call
//!   itself is measured once and taken off. Every library predicate the search calls is
//!   called once before it (`warm_up/0`): the first call of `numlist/3` alone costs some
//!   17,000 inferences of autoloading, which would otherwise be counted as search. They go in the row's `logical_inferences`
//!   column, not `inferences` (propagate's domain removals).
//! * **Times**: `seconds` is the search's wall-clock time measured inside Prolog
//!   (`get_time/1` around the same span as the inferences); `call_seconds` is the whole
//!   call (writing the program, starting `swipl`, loading, the search, printing).
//! * **Limit**: the search runs with what is left of the run's budget under `within/2`: a
//!   timer thread that throws `time_limit_exceeded` in the search when the time is up, as
//!   library(time)'s `call_with_time_limit/2` does (loading that library cost 18 ms a run,
//!   most of SWI-Prolog's start); a `swipl` still alive [`GRACE`] seconds after the
//!   deadline is killed and the run ends as `time_limit`.
//! * **Counting** (`--count N`): the search goes on after a solution until N are found or
//!   none is left; the first is the answer.
//! * **Version and flags**: the program prints SWI-Prolog's version and the flags that
//!   change what is counted (`optimise`, `last_call_optimisation`, `occurs_check`); the
//!   row's `solver_version` holds both, e.g. `SWI-Prolog 9.0.4 (swipl -f none -q;
//!   optimise=false, last_call_optimisation=true, occurs_check=false)`.
//!
//! Threads, seed, presolve and gap do not apply. The program needs every variable in
//! exactly one permutation group (a house's attribute); a model that has another shape is
//! refused with the reason.

use super::external::{self, GRACE};
use super::propagate::order;
use super::{
    Budget, Capabilities, Declaration, Engine, EngineImpl, Heuristics, Kind, Outcome, Settings,
    SolveOptions, Status,
};
use crate::cp_model::{check, Constraint, CpModel};
use crate::process::{self, Finished};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The engine.
pub const PROLOG: Engine = Engine::new(&Prolog);

/// SWI-Prolog on the clue program.
pub struct Prolog;

/// The environment variable naming the swipl program.
pub const SWIPL_VAR: &str = "PUZZLEBENCH_SWIPL";

/// The command-line options `swipl` runs with (no user init file, quiet), before
/// `-g main -t halt FILE`; recorded in the version.
pub const SWIPL_OPTIONS: [&str; 3] = ["-f", "none", "-q"];

static DECLARATION: Declaration = Declaration {
    key: "prolog",
    description: "SWI-Prolog (swi-prolog-nox) in a child process: the constraint program as a Prolog program, one goal per clue in the order of --heuristics, generate and test; logical inferences",
    capabilities: Capabilities {
        kinds: &[Kind::Cp],
        continuous: false,
        fractional_coefficients: false,
        lp_relaxation: false,
        incumbent_at_limit: false,
        presolve: false,
        seed: false,
        threads: false,
        mip_gap: false,
        heuristics: true,
        clausal: false,
        external: true,
        general: true,
        timeline: false,
        ..Capabilities::MIP
    },
};

/// `PUZZLEBENCH_SWIPL`, else `swipl` (found on the PATH).
pub fn swipl() -> PathBuf {
    process::program(SWIPL_VAR, "swipl")
}

impl EngineImpl for Prolog {
    fn declaration(&self) -> &'static Declaration {
        &DECLARATION
    }

    fn version(&self) -> String {
        static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        external::cached_version(&VERSION, || {
            let program = swipl();
            let out = Command::new(&program)
                .arg("--version")
                .output()
                .map_err(|e| format!("{}: {e} (install swi-prolog-nox)", program.display()))?;
            // "SWI-Prolog version 9.0.4 for x86_64-linux"
            let text = String::from_utf8_lossy(&out.stdout);
            let v = text
                .split_whitespace()
                .skip_while(|w| *w != "version")
                .nth(1)
                .ok_or_else(|| format!("{}: no version in '{}'", program.display(), text.trim()))?;
            Ok(format!("SWI-Prolog {v}"))
        })
    }

    fn applied(&self, kind: Kind, options: &SolveOptions) -> Settings {
        let mut s = Settings::from_capabilities(&DECLARATION.capabilities, options);
        let _ = kind;
        // `root` posts every clue at once: a program that runs its goals in order has no
        // such setting, and runs them in the instance's order.
        if s.heuristics == Some(Heuristics::Root) {
            s.heuristics = Some(Heuristics::None);
        }
        s
    }

    fn solve_cp(&self, model: &CpModel, settings: &Settings, budget: &Budget) -> Outcome {
        solve_with(&swipl(), model, settings, budget)
    }
}

/// Where each variable sits in the houses: (group, index in the group), or why the model
/// has no houses.
fn layout(model: &CpModel) -> Result<Vec<(usize, usize)>, String> {
    check(model)?;
    let mut at = vec![None; model.vars.len()];
    for (g, vars) in model.groups.iter().enumerate() {
        for (j, &x) in vars.iter().enumerate() {
            if at[x].replace((g, j)).is_some() {
                return Err(format!(
                    "the prolog engine needs every variable in one permutation group; {} is in two",
                    model.vars[x]
                ));
            }
        }
    }
    at.into_iter()
        .enumerate()
        .map(|(x, a)| {
            a.ok_or_else(|| {
                format!(
                    "the prolog engine needs every variable in a permutation group (a house's attribute); {} is in none",
                    model.vars[x]
                )
            })
        })
        .collect()
}

/// A house term `h(_,..)` with the given (group, value) slots filled, or `None` when two
/// of them ask one slot for different values.
fn term(groups: usize, slots: &[(usize, usize)]) -> Option<String> {
    let mut args = vec![None; groups];
    for &(g, j) in slots {
        match args[g] {
            Some(v) if v != j => return None,
            _ => args[g] = Some(j),
        }
    }
    let args: Vec<String> = args
        .iter()
        .map(|a| a.map_or("_".to_string(), |j| j.to_string()))
        .collect();
    Some(format!("h({})", args.join(",")))
}

/// The goal of one constraint, on the houses `Hs`; `k` numbers its own variables.
fn goal(c: Constraint, at: &[(usize, usize)], groups: usize, k: usize) -> String {
    let one = |x: usize| term(groups, &[at[x]]).expect("one slot");
    // Both sides placed, their house numbers I and J tested.
    let placed = |x: usize, y: usize, test: String| {
        format!(
            "nth1(I{k}, Hs, {}), nth1(J{k}, Hs, {}), {test}",
            one(x),
            one(y)
        )
    };
    match c {
        Constraint::Is(x, v) => format!("nth1({}, Hs, {})", v + 1, one(x)),
        Constraint::IsNot(x, v) => format!("nth1(I{k}, Hs, {}), I{k} =\\= {}", one(x), v + 1),
        Constraint::Same(x, y) => match term(groups, &[at[x], at[y]]) {
            Some(t) => format!("member({t}, Hs)"),
            None => "fail".to_string(),
        },
        Constraint::Differ(x, y) => placed(x, y, format!("I{k} =\\= J{k}")),
        Constraint::Offset(x, y, 1) => format!("left_of({}, {}, Hs)", one(x), one(y)),
        Constraint::Offset(x, y, -1) => format!("left_of({}, {}, Hs)", one(y), one(x)),
        Constraint::Offset(x, y, d) => format!(
            "nth1(I{k}, Hs, {}), J{k} is I{k} + ({d}), J{k} >= 1, nth1(J{k}, Hs, {})",
            one(x),
            one(y)
        ),
        Constraint::NotOffset(x, y, d) => placed(x, y, format!("J{k} =\\= I{k} + ({d})")),
        Constraint::Adjacent(x, y) => format!("next_to({}, {}, Hs)", one(x), one(y)),
        Constraint::NotAdjacent(x, y) => placed(x, y, format!("abs(I{k} - J{k}) =\\= 1")),
    }
}

/// The constraint as a comment (variable names), for a reader of the program.
fn describe(c: Constraint, model: &CpModel) -> String {
    let n = |x: usize| model.vars[x].as_str();
    let text = match c {
        Constraint::Is(x, v) => format!("{} = {}", n(x), v + 1),
        Constraint::IsNot(x, v) => format!("{} != {}", n(x), v + 1),
        Constraint::Same(x, y) => format!("{} = {}", n(x), n(y)),
        Constraint::Differ(x, y) => format!("{} != {}", n(x), n(y)),
        Constraint::Offset(x, y, d) => format!("{} = {} + {d}", n(y), n(x)),
        Constraint::NotOffset(x, y, d) => format!("{} != {} + {d}", n(y), n(x)),
        Constraint::Adjacent(x, y) => format!("|{} - {}| = 1", n(x), n(y)),
        Constraint::NotAdjacent(x, y) => format!("|{} - {}| != 1", n(x), n(y)),
    };
    text.replace(['\n', '\r'], " ")
}

/// The Prolog program of `model`: its clues in the order of `heuristics`, looking for up
/// to `count` solutions within `limit` seconds (`None`: no limit). Running `main` prints
/// the lines [`read`] takes.
pub fn program(
    model: &CpModel,
    heuristics: Heuristics,
    count: u32,
    limit: Option<f64>,
) -> Result<String, String> {
    let at = layout(model)?;
    let groups = model.groups.len();
    let width = model.width;
    let heuristics = if heuristics == Heuristics::Root {
        Heuristics::None
    } else {
        heuristics
    };
    let mut p = String::new();
    let _ = writeln!(
        p,
        "% Written by puzzlebench (engine prolog) for {}: {width} houses, {groups} attributes,",
        model.name.replace(['\n', '\r'], " ")
    );
    let _ = writeln!(
        p,
        "% {} clues in the order of heuristics {heuristics}.",
        model.constraints.len()
    );
    let _ = writeln!(
        p,
        "% A house is h(A1, .., A{groups}); Ag is the value of attribute g there:"
    );
    for (g, vars) in model.groups.iter().enumerate() {
        let names: Vec<String> = vars
            .iter()
            .enumerate()
            .map(|(j, &x)| format!("{j} {}", model.vars[x].replace(['\n', '\r'], " ")))
            .collect();
        let _ = writeln!(p, "%   A{}: {}", g + 1, names.join(", "));
    }
    p.push_str(
        r#"
:- use_module(library(lists)).
:- use_module(library(apply)).

% A immediately left of B; A and B next to each other.
left_of(A, B, [A,B|_]).
left_of(A, B, [_|Hs]) :- left_of(A, B, Hs).
next_to(A, B, Hs) :- left_of(A, B, Hs).
next_to(A, B, Hs) :- left_of(B, A, Hs).

% Every attribute a permutation of its values: the houses still empty get the values
% not yet placed, in every order; a value placed twice fails.
complete(Hs) :- attributes(K), values(Vs), complete(Hs, 1, K, Vs).
complete(_, G, K, _) :- G > K, !.
complete(Hs, G, K, Vs) :-
    maplist(arg(G), Hs, Column),
    fill(Column, Vs),
    G1 is G + 1,
    complete(Hs, G1, K, Vs).
fill(Column, Values) :-
    include(nonvar, Column, Placed),
    sort(Placed, Distinct),
    length(Placed, N),
    length(Distinct, N),
    subtract(Values, Distinct, Missing),
    include(var, Column, Empty),
    permutation(Missing, Empty).

% Each library predicate of the search called once before it, so that loading them
% (autoloading, first-call set-up) is not counted as the search's inferences.
warm_up :-
    houses(_),
    values(Vs),
    once(fill([_], [0])),
    once(maplist(arg(1), [h(0)], _)),
    once(member(_, Vs)),
    once(nth1(_, Vs, _)),
    once(nth0(_, Vs, _)),
    once(left_of(_, _, [a, b])),
    once(next_to(_, _, [a, b])),
    _ is abs(0),
    nb_setval(pb_warm, 0),
    nb_getval(pb_warm, _),
    statistics(inferences, _),
    get_time(_).
"#,
    );
    let values: Vec<String> = (0..width).map(|j| j.to_string()).collect();
    let _ = writeln!(
        p,
        "\nattributes({groups}).\nvalues([{}]).",
        values.join(",")
    );
    let house = format!("h({})", vec!["_"; groups].join(","));
    let _ = writeln!(p, "houses([{}]).", vec![house; width].join(", "));
    p.push_str("\n% One goal per clue.\nclues(Hs) :-\n");
    let order = order(model, heuristics);
    if order.is_empty() {
        p.push_str("    true.\n");
    }
    for (k, &i) in order.iter().enumerate() {
        let c = model.constraints[i];
        let end = if k + 1 == order.len() { "." } else { "," };
        let _ = writeln!(p, "    % clue {}: {}", i + 1, describe(c, model));
        let _ = writeln!(p, "    {}{end}", goal(c, &at, groups, k));
    }
    // The house of each variable, from 0, by variable.
    let slots: Vec<String> = at.iter().map(|&(g, j)| format!("{}-{j}", g + 1)).collect();
    let _ = writeln!(p, "\nslots([{}]).", slots.join(","));
    let _ = writeln!(p, "wanted({}).", count.max(1));
    match limit {
        Some(t) => {
            let _ = writeln!(p, "limit({t:.6}).");
        }
        None => p.push_str("limit(none).\n"),
    }
    p.push_str(
        r#"
% The search: houses, clues, completion, until the solutions wanted are found.
search(N) :-
    houses(Hs),
    (   clues(Hs),
        complete(Hs),
        nb_getval(pb_found, F0),
        F is F0 + 1,
        nb_setval(pb_found, F),
        ( F0 =:= 0 -> nb_setval(pb_first, Hs) ; true ),
        F >= N
    ->  true
    ;   true
    ).

% The search alone between two readings of the inference counter and the clock.
measured(N) :-
    statistics(inferences, I0),
    get_time(T0),
    nb_setval(pb_start, I0-T0),
    search(N),
    statistics(inferences, I1),
    get_time(T1),
    nb_setval(pb_end, I1-T1).

stopped :-
    statistics(inferences, I1),
    get_time(T1),
    nb_setval(pb_end, I1-T1),
    nb_setval(pb_status, time_limit).

run(none, N) :- measured(N).
run(T, N) :- number(T), within(T, measured(N)).

% Goal under a limit of T seconds: a timer thread throws time_limit_exceeded in this one
% when T has passed (as library(time)'s call_with_time_limit/2, whose loading alone costs
% some 18 ms a run), and is ended when Goal is.
within(T, Goal) :-
    thread_self(Me),
    thread_create((sleep(T), thread_signal(Me, throw(time_limit_exceeded))), Timer, []),
    call_cleanup(once(Goal), stop_timer(Timer)).
stop_timer(Timer) :-
    catch(thread_signal(Timer, abort), _, true),
    catch(thread_join(Timer, _), _, true).

position(Hs, G-J, P) :- nth0(P, Hs, H), arg(G, H, V), V == J, !.
position(_, _, -1).

main :-
    catch(main_, E, format("status error ~q~n", [E])).

main_ :-
    current_prolog_flag(version_data, swi(Ma, Mi, Pa, _)),
    format("version ~w.~w.~w~n", [Ma, Mi, Pa]),
    current_prolog_flag(optimise, O),
    current_prolog_flag(last_call_optimisation, L),
    current_prolog_flag(occurs_check, Oc),
    format("flags optimise=~w, last_call_optimisation=~w, occurs_check=~w~n", [O, L, Oc]),
    warm_up,
    statistics(inferences, C0),
    statistics(inferences, C1),
    Cost is C1 - C0,
    nb_setval(pb_found, 0),
    nb_setval(pb_first, none),
    nb_setval(pb_status, done),
    wanted(N),
    limit(T),
    catch(run(T, N), time_limit_exceeded, stopped),
    nb_getval(pb_start, I0-T0),
    nb_getval(pb_end, I1-T1),
    Inferences is I1 - I0 - Cost,
    Seconds is T1 - T0,
    nb_getval(pb_found, Found),
    nb_getval(pb_status, Status),
    format("inferences ~d~n", [Inferences]),
    format("seconds ~6f~n", [Seconds]),
    format("solutions ~d~n", [Found]),
    nb_getval(pb_first, First),
    (   First == none
    ->  true
    ;   slots(Slots),
        maplist(position(First), Slots, Ps),
        atomic_list_concat(Ps, ' ', Line),
        format("values ~w~n", [Line])
    ),
    format("status ~w~n", [Status]).
"#,
    );
    Ok(p)
}

/// Solves `model` with the swipl at `program` (one that cannot be started is "not
/// installed").
pub fn solve_with(
    program_path: &Path,
    model: &CpModel,
    settings: &Settings,
    budget: &Budget,
) -> Outcome {
    let started = Instant::now();
    let heuristics = settings.heuristics.unwrap_or(Heuristics::None);
    let limit = match budget.left() {
        Some(left) if left <= 0.0 => return Outcome::time_limit(0.0),
        other => other,
    };
    let text = match program(model, heuristics, settings.count, limit) {
        Ok(t) => t,
        Err(why) => return Outcome::refused(why, 0.0),
    };
    let file = match process::temp_file(&text, ".pl") {
        Ok(f) => f,
        Err(e) => return Outcome::error(e, 0.0),
    };
    let mut cmd = Command::new(program_path);
    cmd.args(SWIPL_OPTIONS)
        .arg("-g")
        .arg("main")
        .arg("-t")
        .arg("halt")
        .arg(&*file);
    let finished = match process::run_watched(
        cmd,
        Vec::new(),
        budget.deadline().map(|d| process::after(d, GRACE)),
        started,
        &|_, _| {},
    ) {
        Ok(f) => f,
        Err(e) => return Outcome::error(format!("{e} (install swi-prolog-nox)"), 0.0),
    };
    let mut o = read(model.vars.len(), &finished);
    o.call_seconds = Some(started.elapsed().as_secs_f64());
    o
}

/// The outcome from the lines `main` printed (see [`program`]); `vars` is the model's
/// variable count. Output that lacks a line or holds a bad one is an `error` with the
/// reason, never a panic.
pub fn read(vars: usize, run: &Finished) -> Outcome {
    if run.killed {
        return Outcome {
            message: Some(format!(
                "killed {GRACE} s after the run's deadline (swipl had not stopped at its limit)"
            )),
            ..Outcome::time_limit(run.seconds)
        };
    }
    match parse(vars, &run.stdout) {
        Ok(o) => o,
        Err(why) => {
            let last = run
                .stderr
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(|l| format!("; swipl said: {}", l.trim()))
                .unwrap_or_default();
            Outcome::error(format!("{why}{last}"), run.seconds)
        }
    }
}

/// The outcome of the program's output `text`, or what is wrong with it.
pub fn parse(vars: usize, text: &str) -> Result<Outcome, String> {
    let mut version = None;
    let mut flags = None;
    let mut inferences = None;
    let mut seconds = None;
    let mut solutions = None;
    let mut values = None;
    let mut status = None;
    for line in text.lines() {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let number = |what: &str| -> Result<u64, String> {
            rest.trim()
                .parse::<u64>()
                .map_err(|_| format!("swipl printed a bad {what}: '{line}'"))
        };
        match key {
            "version" => version = Some(rest.trim().to_string()),
            "flags" => flags = Some(rest.trim().to_string()),
            "inferences" => inferences = Some(number("inference count")?),
            "solutions" => solutions = Some(number("solution count")?),
            "seconds" => {
                let s = rest
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s >= 0.0)
                    .ok_or_else(|| format!("swipl printed a bad time: '{line}'"))?;
                seconds = Some(s);
            }
            "values" => {
                let v: Vec<f64> = rest
                    .split_whitespace()
                    .map(|w| w.parse::<u32>().map(f64::from))
                    .collect::<Result<_, _>>()
                    .map_err(|_| format!("swipl printed bad values: '{line}'"))?;
                if v.len() != vars {
                    return Err(format!(
                        "swipl printed {} values for {vars} variables",
                        v.len()
                    ));
                }
                values = Some(v);
            }
            "status" => status = Some(rest.trim().to_string()),
            _ => {}
        }
    }
    let status = status.ok_or("swipl printed no status")?;
    let version = version.map(|v| {
        let flags = flags.map_or(String::new(), |f| format!("; {f}"));
        format!("SWI-Prolog {v} (swipl {}{flags})", SWIPL_OPTIONS.join(" "))
    });
    if let Some(why) = status.strip_prefix("error") {
        return Ok(Outcome {
            version,
            ..Outcome::error(format!("swipl: {}", why.trim()), seconds.unwrap_or(0.0))
        });
    }
    let found = solutions.ok_or("swipl printed no solution count")?;
    let inferences = inferences.ok_or("swipl printed no inference count")?;
    let seconds = seconds.ok_or("swipl printed no time")?;
    if found > 0 && values.is_none() {
        return Err(format!("swipl found {found} solutions but printed none"));
    }
    let status = match (status.as_str(), found) {
        ("done", 0) => Status::Infeasible,
        ("done", _) => Status::Optimal,
        ("time_limit", 0) => Status::TimeLimit,
        ("time_limit", _) => Status::Feasible,
        (other, _) => return Err(format!("swipl printed an unknown status '{other}'")),
    };
    Ok(Outcome {
        values: values.filter(|_| found > 0),
        message: (status == Status::Feasible)
            .then(|| format!("time limit reached after {found} solutions")),
        solutions: Some(found),
        logical_inferences: Some(inferences),
        version,
        ..Outcome::with_status(status, seconds)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two attributes of three values: a = [a0, a1, a2], b = [b0, b1, b2].
    fn two_by_three(constraints: Vec<Constraint>) -> CpModel {
        CpModel {
            name: "t".into(),
            width: 3,
            vars: ["a0", "a1", "a2", "b0", "b1", "b2"]
                .map(String::from)
                .to_vec(),
            groups: vec![vec![0, 1, 2], vec![3, 4, 5]],
            constraints,
        }
    }

    const GOOD: &str = "version 9.0.4\n\
        flags optimise=false, last_call_optimisation=true, occurs_check=false\n\
        inferences 608\n\
        seconds 0.000067\n\
        solutions 1\n\
        values 0 1 2 2 0 1\n\
        status done\n";

    #[test]
    fn the_output_gives_status_values_counts_and_version() {
        let o = parse(6, GOOD).unwrap();
        assert_eq!(o.status, Status::Optimal);
        assert_eq!(o.values, Some(vec![0.0, 1.0, 2.0, 2.0, 0.0, 1.0]));
        assert_eq!(o.logical_inferences, Some(608));
        assert_eq!(o.inferences, None, "propagate's count, not Prolog's");
        assert_eq!(o.solutions, Some(1));
        assert!((o.seconds - 0.000067).abs() < 1e-12);
        let v = o.version.unwrap();
        assert!(
            v.starts_with("SWI-Prolog 9.0.4 (swipl -f none -q; optimise=false"),
            "{v}"
        );
        let none = parse(
            6,
            "version 9.0.4\ninferences 5\nseconds 0.1\nsolutions 0\nstatus done\n",
        )
        .unwrap();
        assert_eq!((none.status, none.values), (Status::Infeasible, None));
        let late = "inferences 5\nseconds 2.0\nsolutions 0\nstatus time_limit\n";
        assert_eq!(parse(6, late).unwrap().status, Status::TimeLimit);
        let one = GOOD.replace("status done", "status time_limit");
        let o = parse(6, &one).unwrap();
        assert_eq!(o.status, Status::Feasible);
        assert!(o.values.is_some() && o.message.is_some());
    }

    #[test]
    fn bad_output_is_an_error_with_the_reason_never_a_panic() {
        let cases = [
            ("", "no status"),
            ("status done\n", "no solution count"),
            (
                &GOOD.replace("inferences 608", "inferences many")[..],
                "bad inference count",
            ),
            (
                &GOOD.replace("inferences 608\n", "")[..],
                "no inference count",
            ),
            (
                &GOOD.replace("seconds 0.000067", "seconds -1")[..],
                "bad time",
            ),
            (
                &GOOD.replace("values 0 1 2 2 0 1", "values 0 1 2")[..],
                "3 values for 6",
            ),
            (
                &GOOD.replace("values 0 1 2 2 0 1", "values 0 1 2 2 0 -1")[..],
                "bad values",
            ),
            (
                &GOOD.replace("values 0 1 2 2 0 1\n", "")[..],
                "printed none",
            ),
            (
                &GOOD.replace("status done", "status maybe")[..],
                "unknown status",
            ),
        ];
        for (text, why) in cases {
            let e = parse(6, text).unwrap_err();
            assert!(e.contains(why), "{e} (wanted {why})");
        }
        // Through `read`: an error outcome, with what swipl said on standard error.
        let run = Finished {
            stdout: "version 9.0.4\n".into(),
            lines: vec![],
            stderr: "ERROR: something broke\n".into(),
            success: false,
            code: Some(1),
            signal: None,
            killed: false,
            seconds: 0.5,
        };
        let o = read(6, &run);
        assert_eq!(o.status, Status::Error);
        let m = o.message.unwrap();
        assert!(
            m.contains("no status") && m.contains("something broke"),
            "{m}"
        );
        // An exception the program caught is an error with its term.
        let o = parse(6, "version 9.0.4\nstatus error resource_error(memory)\n").unwrap();
        assert_eq!(o.status, Status::Error);
        assert!(o.message.unwrap().contains("resource_error"));
        assert!(o.version.is_some());
        let killed = Finished {
            killed: true,
            ..run
        };
        assert_eq!(read(6, &killed).status, Status::TimeLimit);
    }

    #[test]
    fn each_clue_is_one_goal_in_the_order_of_the_heuristics() {
        let m = two_by_three(vec![
            Constraint::Adjacent(0, 1),
            Constraint::Same(0, 3),
            Constraint::Is(2, 0),
            Constraint::NotOffset(1, 4, 1),
        ]);
        let p = program(&m, Heuristics::H12, 2, Some(1.5)).unwrap();
        let goals: Vec<&str> = p
            .lines()
            .skip_while(|l| !l.starts_with("clues(Hs)"))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .filter(|l| !l.trim_start().starts_with('%'))
            .map(str::trim)
            .collect();
        assert_eq!(
            goals,
            [
                "nth1(1, Hs, h(2,_)),",
                "member(h(0,0), Hs),",
                "next_to(h(0,_), h(1,_), Hs),",
                "nth1(I3, Hs, h(1,_)), nth1(J3, Hs, h(_,1)), J3 =\\= I3 + (1).",
            ]
        );
        assert!(p.contains("wanted(2).") && p.contains("limit(1.500000)."));
        assert!(p.contains("houses([h(_,_), h(_,_), h(_,_)])."));
        // `root` has no meaning for a program that runs its goals in order: `none`.
        assert_eq!(
            program(&m, Heuristics::Root, 1, None).unwrap(),
            program(&m, Heuristics::None, 1, None).unwrap()
        );
        let s = PROLOG.settings(
            Kind::Cp,
            &SolveOptions {
                heuristics: Heuristics::Root,
                ..SolveOptions::default()
            },
        );
        assert_eq!(s.heuristics, Some(Heuristics::None));
        // Two values of one attribute in one house: no such house.
        let clash = two_by_three(vec![Constraint::Same(0, 1)]);
        assert!(program(&clash, Heuristics::None, 1, None)
            .unwrap()
            .contains("    fail."));
    }

    #[test]
    fn a_model_without_houses_is_refused() {
        let mut m = two_by_three(vec![]);
        m.groups.pop();
        let why = program(&m, Heuristics::None, 1, None).unwrap_err();
        assert!(why.contains("b0 is in none"), "{why}");
        let o = solve_with(
            Path::new("/nonexistent/swipl"),
            &m,
            &Settings::default(),
            &Budget::unlimited(),
        );
        assert_eq!(o.status, Status::Refused);
    }

    #[test]
    fn swipl_solves_counts_and_proves_infeasible() {
        if !PROLOG.installed() {
            eprintln!("skipped: {}", PROLOG.version());
            return;
        }
        // a0 in house 1, b0 with a0, b1 right after a1: one solution.
        let m = two_by_three(vec![
            Constraint::Is(0, 0),
            Constraint::Same(0, 3),
            Constraint::Offset(1, 4, 1),
        ]);
        let settings = |count| Settings {
            heuristics: Some(Heuristics::None),
            count,
            ..Settings::default()
        };
        let o = solve_with(&swipl(), &m, &settings(2), &Budget::unlimited());
        assert_eq!(o.status, Status::Optimal, "{o:?}");
        assert_eq!(o.solutions, Some(1));
        assert_eq!(o.values, Some(vec![0.0, 1.0, 2.0, 0.0, 2.0, 1.0]));
        assert!(o.logical_inferences.unwrap() > 0);
        assert!(o.call_seconds.unwrap() >= o.seconds);
        // Without clues: 3! × 3! solutions, counted up to 100.
        let free = two_by_three(vec![]);
        let o = solve_with(&swipl(), &free, &settings(100), &Budget::unlimited());
        assert_eq!(o.solutions, Some(36), "{o:?}");
        // Every negated clue: a0 not in house 1, a0 ≠ b0, b0 not right after a1, a1 and
        // b1 not neighbours; the search finds what meets them.
        let neg = two_by_three(vec![
            Constraint::IsNot(0, 0),
            Constraint::Differ(0, 3),
            Constraint::NotOffset(1, 3, 1),
            Constraint::NotAdjacent(1, 4),
            Constraint::Offset(2, 5, 2),
        ]);
        let o = solve_with(&swipl(), &neg, &settings(1), &Budget::unlimited());
        let v: Vec<i32> = o.values.unwrap().iter().map(|&x| x as i32).collect();
        assert!(v[0] != 0 && v[0] != v[3] && v[3] != v[1] + 1, "{v:?}");
        assert!((v[1] - v[4]).abs() != 1 && v[5] == v[2] + 2, "{v:?}");
        let bad = two_by_three(vec![Constraint::Same(0, 3), Constraint::Differ(0, 3)]);
        let o = solve_with(&swipl(), &bad, &settings(1), &Budget::unlimited());
        assert_eq!((o.status, o.solutions), (Status::Infeasible, Some(0)));
    }
}
