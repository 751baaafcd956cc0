"""A paper's claims, the tests run on them here, and a verdict for each claim computed by one rule.

A *test* is one comparison on one data set: an effect (e.g. r(new metric) - r(baseline)) with its 95%
interval and, where the test gives them, one-sided p-values for the claim's direction and the reverse.
The rule (``RULE``, rendered in every paper notebook) turns tests into verdicts:

* a test **supports** the claim when it is significant at 5% in the claim's direction (one-sided p <= 0.05;
  a test without p-values: its 95% interval lies wholly on the claim's side of the threshold, an exact
  computation being an interval of one point); it **contradicts** the claim when it is significant in the
  opposite direction; otherwise it is **inconclusive**;
* a data set **bears out** the claim when every test on it supports it;
* the verdict is **held** when every data set tested bears it out, **held on some sets** when at least one
  does and another does not, **not held** when none does, and **not testable here** when no test could be
  run (the reason is stated).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

ALPHA = 0.05
HELD, SOME, NOT_HELD, UNTESTABLE = "held", "held on some sets", "not held", "not testable here"
SUPPORTS, CONTRADICTS, INCONCLUSIVE = "supports", "contradicts", "inconclusive"
SIDES = (">", "<")

RULE = ("**How each verdict is computed (one rule for every notebook).** A test is one comparison on one data "
        "set. It *supports* the claim when it is significant at 5% in the claim's direction (one-sided p ≤ 0.05; "
        "without p-values, when its 95% interval lies wholly on the claim's side of the threshold, an exact "
        "computation being an interval of one point), *contradicts* it when significant the other way, and is "
        "*inconclusive* otherwise. A data set bears the claim out when every test on it supports it. Verdict: "
        "**held** when every data set tested bears it out, **held on some sets** when at least one does and "
        "another does not, **not held** when none does, **not testable here** when no test could be run (the "
        "reason is given).")


@dataclass(frozen=True)
class Test:
    """One test of a claim on one data set.

    ``effect`` with its interval [``low``, ``high``]; the claim is ``effect > threshold`` (``side=">"``)
    or ``effect < threshold`` (``side="<"``). ``p_for`` / ``p_against``: one-sided p-values for the claim's
    direction and the reverse (None when the test gives none: the interval decides).
    """

    dataset: str
    test: str
    effect: float
    low: float
    high: float
    p_for: float | None = None
    p_against: float | None = None
    threshold: float = 0.0
    side: str = ">"

    def __post_init__(self):
        if self.side not in SIDES:
            raise ValueError(f"side must be one of {SIDES}, got {self.side!r}")
        if not all(math.isfinite(v) for v in (self.effect, self.low, self.high)):
            raise ValueError(f"test {self.test!r} on {self.dataset!r}: effect and interval must be finite numbers, "
                             f"got {self.effect}, [{self.low}, {self.high}]")
        if self.low > self.high:
            raise ValueError(f"test {self.test!r} on {self.dataset!r}: interval [{self.low}, {self.high}] is reversed")

    @property
    def outcome(self) -> str:
        """``supports``, ``contradicts`` or ``inconclusive``, by the rule of the module docstring."""
        if self.p_for is not None or self.p_against is not None:
            if self.p_for is not None and self.p_for <= ALPHA:
                return SUPPORTS
            if self.p_against is not None and self.p_against <= ALPHA:
                return CONTRADICTS
            return INCONCLUSIVE
        above, below = self.low > self.threshold, self.high < self.threshold
        if (above and self.side == ">") or (below and self.side == "<"):
            return SUPPORTS
        if (below and self.side == ">") or (above and self.side == "<"):
            return CONTRADICTS
        return INCONCLUSIVE


def exact(dataset: str, test: str, value: float, *, threshold: float, side: str) -> Test:
    """A computed value without sampling error (a worked example, a spread): its interval is the point."""
    return Test(dataset, test, float(value), float(value), float(value), threshold=threshold, side=side)


def compared(table, metric: str, baseline: str, human: str, *, dataset: str, level: str, coef: str,
             n_resamples: int, seed: int = 0, resample: str = "both") -> Test:
    """The claim "``metric`` correlates better with ``human`` than ``baseline``" on ``table``: the
    difference of correlations with its 95% paired-bootstrap interval and the paired permutation test
    both ways (Deutsch, Dror & Roth 2021), each one-sided."""
    from rougelab.metaeval import bootstrap_difference, permutation_test

    args = (human, level, coef)
    better = permutation_test(table, metric, baseline, *args, n_resamples=n_resamples, seed=seed)
    worse = permutation_test(table, baseline, metric, *args, n_resamples=n_resamples, seed=seed)
    diff = bootstrap_difference(table, metric, baseline, *args, n_resamples=n_resamples, resample=resample, seed=seed)
    return Test(dataset, f"{metric} vs {baseline}, {human}, {level}-level {coef}: permutation test both ways",
                better.delta, diff.low, diff.high, better.pvalue, worse.pvalue)


def from_versus(rows) -> list[Test]:
    """Tests from ``rougelab.leaderboard.versus`` rows (one per dataset, criterion and level)."""
    return [Test(r.dataset, f"{r.metric} vs {r.baseline}, {r.criterion}, {r.level}-level {r.coef}: permutation "
                            "test both ways", r.delta, r.delta_low, r.delta_high,
                 r.pvalue_better, r.pvalue_worse) for r in rows.itertuples()]


@dataclass
class Claim:
    """A claim of the paper (``text``, with ``where`` it is made) and its tests, or why it has none."""

    text: str
    where: str
    tests: list[Test] = field(default_factory=list)
    untestable: str | None = None

    @property
    def verdict(self) -> str | None:
        """One of the four verdicts, or None while the claim has neither tests nor a reason."""
        if self.untestable is not None:
            return UNTESTABLE
        if not self.tests:
            return None
        borne = [all(t.outcome == SUPPORTS for t in self.tests if t.dataset == d) for d in self.datasets]
        return HELD if all(borne) else SOME if any(borne) else NOT_HELD

    @property
    def datasets(self) -> list[str]:
        return list(dict.fromkeys(t.dataset for t in self.tests))

    @property
    def why(self) -> str:
        """The counts behind the verdict (or the reason it is not testable)."""
        if self.untestable is not None:
            return self.untestable
        outcomes = [t.outcome for t in self.tests]
        borne = [d for d in self.datasets if all(t.outcome == SUPPORTS for t in self.tests if t.dataset == d)]
        against = [d for d in self.datasets if any(t.outcome == CONTRADICTS for t in self.tests if t.dataset == d)]
        parts = [f"borne out on {len(borne)} of {len(self.datasets)} data sets" + (f" ({', '.join(borne)})" if borne else ""),
                 f"of {len(outcomes)} tests, {_verb(outcomes.count(SUPPORTS), 'support')} it and "
                 f"{_verb(outcomes.count(CONTRADICTS), 'contradict')} it" + (f" (on {', '.join(against)})" if against else "")]
        return "; ".join(parts)


class Scorecard:
    """The claims of one paper, declared up front, filled in with tests as the notebook computes them.

    ``show()`` displays the card (in a notebook, at the top); every ``add`` or ``not_testable`` updates
    that display, so the executed notebook opens with the final card. ``verdict(key)`` gives the
    verdict for the notebook's prose; ``check_complete()`` fails the run if a claim was left without a test
    or a reason.
    """

    def __init__(self, paper: str, claims: dict[str, tuple[str, str]]):
        self.paper = paper
        self.claims = {key: Claim(text, where) for key, (text, where) in claims.items()}
        self._handle = None

    def _claim(self, key: str) -> Claim:
        if key not in self.claims:
            raise KeyError(f"no claim {key!r} on this scorecard; its claims are {', '.join(self.claims)}")
        return self.claims[key]

    def add(self, key: str, *tests: Test) -> Scorecard:
        """Record ``tests`` of claim ``key``."""
        if not tests:
            raise ValueError(f"claim {key!r}: no test given")
        self._claim(key).tests.extend(tests)
        return self._refresh()

    def not_testable(self, key: str, reason: str) -> Scorecard:
        """Mark claim ``key`` as not testable here, for ``reason``."""
        self._claim(key).untestable = reason
        return self._refresh()

    def verdict(self, key: str) -> str:
        """The claim's verdict; raises while it has no test and no reason."""
        claim = self._claim(key)
        if claim.verdict is None:
            raise ValueError(f"claim {key!r} has no test yet")
        return claim.verdict

    def check_complete(self) -> None:
        """Raise ``ValueError`` naming every claim left without a test or a reason."""
        pending = [key for key, claim in self.claims.items() if claim.verdict is None]
        if pending:
            raise ValueError(f"claims without a test or a reason: {', '.join(pending)}")

    def rows(self) -> list[dict]:
        """One row per test (one per untested claim): claim, data set, test, effect, p-values, outcome, verdict."""
        rows = []
        for key, claim in self.claims.items():
            base = {"claim": key, "text": claim.text, "where": claim.where, "verdict": claim.verdict or "pending",
                    "why": claim.why if claim.verdict else "not computed yet"}
            if not claim.tests:
                rows.append({**base, "dataset": "", "test": "", "effect": None, "outcome": ""})
            for t in claim.tests:
                rows.append({**base, "dataset": t.dataset, "test": t.test, "effect": t.effect, "low": t.low,
                             "high": t.high, "p_for": t.p_for, "p_against": t.p_against, "outcome": t.outcome})
        return rows

    def verdicts(self) -> str:
        """One numbered Markdown line per claim: its text, where the paper makes it, its verdict and why."""
        lines = []
        for n, claim in enumerate(self.claims.values(), 1):
            verdict = claim.verdict or "pending (computed further down)"
            lines.append(f"{n}. *{claim.text}* ({claim.where}). **{verdict}**"
                         + (f": {claim.why}." if claim.verdict else ""))
        return "\n".join(lines)

    def markdown(self) -> str:
        """The card as Markdown: the rule, one line per claim with its verdict, then a table of the tests."""
        lines = [f"**Claims scorecard: {self.paper}.** {RULE}", "", self.verdicts()]
        tested = [(n, c) for n, c in enumerate(self.claims.values(), 1) if c.tests]
        if tested:
            lines += ["", "| claim | data set | test | effect [95% interval] | p (claim / reverse) | test says |",
                      "|---|---|---|---|---|---|"]
            for n, claim in tested:
                for t in claim.tests:
                    bound = f" ({t.side} {t.threshold:g})" if t.threshold or t.side == "<" else ""
                    interval = (f"{t.effect:+.3f}" if t.low == t.high else
                                f"{t.effect:+.3f} [{t.low:+.3f}, {t.high:+.3f}]") + bound
                    p = ("–" if t.p_for is None and t.p_against is None else
                         f"{_p(t.p_for)} / {_p(t.p_against)}")
                    lines.append(f"| {n} | {_cell(t.dataset)} | {_cell(t.test)} | {interval} | {p} | {t.outcome} |")
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def show(self):
        """Display the card; later changes update this display."""
        from IPython.display import display

        self._handle = display(self, display_id=True)
        return None

    def _refresh(self) -> Scorecard:
        if self._handle is not None:
            self._handle.update(self)
        return self


def _verb(count: int, verb: str) -> str:
    """"1 supports", "2 support"."""
    return f"{count} {verb}s" if count == 1 else f"{count} {verb}"


def _cell(text: str) -> str:
    """Text for a Markdown table cell (a bare ``|`` would end the cell)."""
    return text.replace("|", "\\|")


def _p(p: float | None) -> str:
    return "–" if p is None else f"{p:.3f}"
