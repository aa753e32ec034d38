"""Typed text, checked the same way everywhere: table, player and person names, currency, notes,
and the stake (the engine's one stake parser). One whole sentence per field and problem."""
from __future__ import annotations

import unicodedata
from decimal import Decimal
from typing import Any

from ..engine.public import N_, EngineError
from ..engine.money import parse_stake as _parse_stake
from .errors_limits import PLAYER_NAME_MAX, ScoringError


def _text_error(what: str, problem: str, field: str, **params) -> ScoringError:
    """One whole sentence per field and problem, so that every message translates as a unit."""
    n = params.get("n")
    maximum, length = params.get("maximum"), params.get("length")
    sentences = {
        ("name", "required"): lambda: N_("The table needs a name."),
        ("name", "too_long"): lambda: N_("The table's name is too long: at most {maximum} characters, not "
                                         "{length}.", maximum=maximum, length=length),
        ("player", "required"): lambda: N_("Player {n} needs a name.", n=n),
        ("player", "too_long"): lambda: N_("Player {n}'s name is too long: at most {maximum} characters, not "
                                           "{length}.", n=n, maximum=maximum, length=length),
        ("person", "required"): lambda: N_("The person needs a name."),
        ("person", "too_long"): lambda: N_("The name is too long: at most {maximum} characters, not {length}.",
                                           maximum=maximum, length=length),
        ("currency", "too_long"): lambda: N_("The currency label is too long: at most {maximum} characters.",
                                             maximum=maximum),
        ("notes", "too_long"): lambda: N_("The notes are too long: at most {maximum} characters.", maximum=maximum),
    }
    make = sentences.get((what, problem)) or (lambda: N_("This text cannot be used here."))
    if problem == "bad_text":
        make = lambda: N_("Use plain text here (no control characters).")  # noqa: E731
    if problem == "invisible":
        make = lambda: N_("This text holds an invisible or text-direction character (often pasted along "  # noqa: E731
                          "with a name): type it again without it.")
    return ScoringError(make(), code=problem, field=field)


# Zero-width and direction-override characters make two names look the same ("Ana" and
# "Ana\u200b") or turn a name around on screen.
_INVISIBLE = frozenset("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e\u200f"
                       "\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068"
                       "\u2069\u3164\ufeff\uffa0")


_ZWNJ, _ZWJ, _TAG_END, _BLACK_FLAG = "\u200c", "\u200d", "\U000e007f", "\U0001f3f4"
# Scripts whose spelling needs the joiners between letters (Persian/Arabic, Syriac, the Indic scripts).
_JOINING_SCRIPTS = ((0x0600, 0x077F), (0x08A0, 0x08FF), (0x0900, 0x0DFF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF))


def _joins_letters(before: str, after: str) -> bool:
    """A joiner between two letters (or marks) of a script that spells with joiners."""
    def ok(ch):
        return unicodedata.category(ch)[0] in "LM" and any(lo <= ord(ch) <= hi for lo, hi in _JOINING_SCRIPTS)
    return ok(before) and ok(after)


def _joins_emoji(before: str, after: str) -> bool:
    """A zero-width joiner inside an emoji sequence (👩🏽‍🦰, 👨‍👩‍👧, 🏳️‍🌈): a pictograph, a skin
    tone or the emoji variation selector before it, a pictograph after it."""
    return (unicodedata.category(before) in ("So", "Sk") or before == "\ufe0f") and unicodedata.category(after) == "So"


def _invisible(value: str) -> bool:
    """Whether ``value`` holds an invisible or text-direction character that is not part of a
    legitimate sequence: joiners inside emoji sequences or between letters of a joining script,
    and the tag letters of a subdivision flag (🏴 + tags + the cancel tag), are allowed; direction
    overrides, lone zero-width characters and joiners between Latin letters are not."""
    in_flag = False
    for i, ch in enumerate(value):
        if "\U000e0020" <= ch <= _TAG_END:
            if not in_flag:
                return True
            in_flag = ch != _TAG_END
            continue
        if in_flag:  # a flag's tags must end with the cancel tag
            return True
        if ch == _BLACK_FLAG:
            in_flag = i + 1 < len(value) and "\U000e0020" <= value[i + 1] <= _TAG_END
            continue
        if ch not in _INVISIBLE and unicodedata.category(ch) != "Cf":
            continue
        before, after = value[i - 1:i], value[i + 1:i + 2]
        if ch in (_ZWJ, _ZWNJ) and before and after and (
                _joins_letters(before, after) or (ch == _ZWJ and _joins_emoji(before, after))):
            continue
        return True
    return in_flag


def _clean_text(value: Any, field: str, maximum: int, *, required: bool, what: str, n: int | None = None) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise _text_error(what, "bad_text", field)
    value = " ".join(unicodedata.normalize("NFKC", value).split())  # one spelling; no newlines or doubled spaces
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 or unicodedata.category(ch) == "Cs" for ch in value):
        raise _text_error(what, "bad_text", field)
    if _invisible(value):
        raise _text_error(what, "invisible", field)
    if required and not value:
        raise _text_error(what, "required", field, n=n)
    if len(value) > maximum:
        raise _text_error(what, "too_long", field, n=n, maximum=maximum, length=len(value))
    return value


def clean_person_name(value: Any) -> str:
    """A person's name (companion/sharing/people.py), judged as a player's name is."""
    return _clean_text(value, "name", PLAYER_NAME_MAX, required=True, what="person")


def parse_stake(stake: Any) -> Decimal:
    """A table's stake: the engine's one stake parser; empty means 0 (a table that keeps points only)."""
    if stake is None or (isinstance(stake, str) and not stake.strip()):
        return Decimal("0")
    try:
        return _parse_stake(stake, allow_zero=True)
    except EngineError as error:  # the same code, message and field, as a table-level error
        raise ScoringError(error.message, code=error.code, field=error.field) from None


def _duplicates(names: list) -> list:
    """A ScoringError for each name that repeats an earlier one (case aside); None entries skipped."""
    seen: set = set()
    out = []
    for i, player in enumerate(names):
        if player is None:
            continue
        key = player.casefold()
        if key in seen:
            out.append(ScoringError(N_("'{name}' is listed twice; every player needs a different name.",
                                       name=player), code="duplicate_player", field=f"players.{i}"))
        seen.add(key)
    return out
