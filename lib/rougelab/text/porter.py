"""The Porter stemmer exactly as ROUGE-1.5.5 runs it (its ``stem`` subroutine).

Porter (1980) with the changes in ROUGE-1.5.5.pl: step 4 no longer strips ``-ment``/``-ent``
from a word ending in ``-ement`` through the first rule list (CYL, 02/14/2004), and then tries
``-ment`` and ``-ent`` as separate, successive rules. It therefore differs from NLTK's Porter.
Input is a lower-case ASCII token; the Perl script only calls it for tokens longer than 3 characters.
"""
from __future__ import annotations

import re

_c = "[^aeiou]"                 # consonant
_v = "[aeiouy]"                 # vowel
_C = _c + "[^aeiouy]*"          # consonant sequence
_V = _v + "[aeiou]*"            # vowel sequence
_MGR0 = re.compile(f"^({_C})?{_V}{_C}")                 # [C]VC... is m>0
_MEQ1 = re.compile(f"^({_C})?{_V}{_C}({_V})?$")         # [C]VC[V] is m=1
_MGR1 = re.compile(f"^({_C})?{_V}{_C}{_V}{_C}")         # [C]VCVC... is m>1
_VOWEL_IN_STEM = re.compile(f"^({_C})?{_v}")
_CVC = re.compile(f"^{_C}{_v}[^aeiouwxy]$")

_STEP2 = {"ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize",
          "bli": "ble", "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous", "ization": "ize",
          "ation": "ate", "ator": "ate", "alism": "al", "iveness": "ive", "fulness": "ful",
          "ousness": "ous", "aliti": "al", "iviti": "ive", "biliti": "ble", "logi": "log"}
_STEP3 = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": ""}
# Alternations in the Perl script's order (leftmost match, then first alternative, as in Perl).
_STEP2_RE = re.compile("(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|"
                       "alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$")
_STEP3_RE = re.compile("(icate|ative|alize|iciti|ical|ful|ness)$")
_STEP4_RE = re.compile("(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")


def porter_stem(word: str) -> str:
    """Stem one lower-case token with ROUGE-1.5.5's modified Porter algorithm (Porter 1980, steps 1-5)."""
    if len(word) < 3:
        return word
    w = word
    initial_y = w[0] == "y"
    if initial_y:  # an initial y is a consonant: upper-case it so no pattern treats it as a vowel
        w = "Y" + w[1:]

    # Step 1a
    if w.endswith(("sses", "ies")):  # (ss|i)es$ -> ss, i
        w = w[:-2]
    elif w[-1] == "s" and w[-2] != "s":  # ([^s])s$
        w = w[:-1]
    # Step 1b
    if w.endswith("eed"):
        if _MGR0.search(w[:-3]):
            w = w[:-1]
    else:
        cut = 2 if w.endswith("ed") else 3 if w.endswith("ing") else 0
        if cut and _VOWEL_IN_STEM.search(w[:-cut]):
            w = w[:-cut]
            if w.endswith(("at", "bl", "iz")):
                w += "e"
            elif len(w) > 1 and w[-1] == w[-2] and w[-1] not in "aeiouylsz":  # ([^aeiouylsz])\1$
                w = w[:-1]
            elif _CVC.search(w):
                w += "e"
    # Step 1c
    if w.endswith("y") and _VOWEL_IN_STEM.search(w[:-1]):
        w = w[:-1] + "i"
    # Step 2
    m = _STEP2_RE.search(w)
    if m and _MGR0.search(w[:m.start()]):
        w = w[:m.start()] + _STEP2[m.group(1)]
    # Step 3
    m = _STEP3_RE.search(w)
    if m and _MGR0.search(w[:m.start()]):
        w = w[:m.start()] + _STEP3[m.group(1)]
    # Step 4 (ROUGE's modification: -ment and -ent are tried as separate rules after the list)
    m = _STEP4_RE.search(w)
    if m and _MGR1.search(w[:m.start()]):
        w = w[:m.start()]
    if w.endswith("ment") and _MGR1.search(w[:-4]):
        w = w[:-4]
    if w.endswith("ent"):
        if _MGR1.search(w[:-3]):
            w = w[:-3]
    else:
        if w.endswith(("sion", "tion")):  # (s|t)(ion)$
            stem = w[:-3]
            if _MGR1.search(stem):
                w = stem
    # Step 5
    if w.endswith("e"):
        stem = w[:-1]
        if _MGR1.search(stem) or (_MEQ1.search(stem) and not _CVC.search(stem)):
            w = stem
    if w.endswith("ll") and _MGR1.search(w):
        w = w[:-1]

    if initial_y:
        w = "y" + w[1:]
    return w
