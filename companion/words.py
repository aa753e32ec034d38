"""Words, not codes: what each house-rule switch, value, preset, play and tally is called on the pages.

The words live with each game (``companion/engine/<game>/words.py``, the engine's ``WORDS``:
engine sentences marked with ``N_``); this module only reads them and translates them when shown.
A switch, value, preset, play or tally a game has no words for falls back to the engine's own help
line and a readable form of its key, never to a bare code.
"""
from __future__ import annotations

import re

from flask_babel import lazy_gettext as _l

from .engine import ENGINES

YES, NO = _l("yes"), _l("no")


def _words(module):
    return module.WORDS


def _said(module, text) -> str | None:
    """An engine word of ``module`` in the page's language, its rule numbers filled in; None when absent."""
    from .i18n import tr

    return None if text is None else tr(_words(module).filled(text))


def field_words(message):
    """An engine sentence whose parameters name a fact by its code, with the form's label instead
    (the labels of every registered game's facts)."""
    from .engine.text import Text

    if not isinstance(message, Text):
        return message
    facts = {key: label for module in ENGINES.values() for key, label in _words(module).facts.items()}
    if not any(isinstance(v, str) and v in facts for v in message.params.values()):
        return message
    params = {k: (Text(facts[v].template) if isinstance(v, str) and v in facts else v) for k, v in message.params.items()}
    return Text(message.template, params, message.plural, message.count)


def _readable(code) -> str:
    """A last resort for a key or value a game has no words for: words, not camelCase."""
    text = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(code)).replace("_", " ").replace(":", " ")
    return text.strip().lower()


def switch_label(module, key: str) -> str:
    words = _words(module).switches.get(key)
    return _said(module, words[0]) if words else _readable(key)


def switch_help(module, key: str) -> str:
    from .i18n import tr

    words = _words(module).switches.get(key)
    if words:
        return _said(module, words[1])
    switch = module.SWITCHES.get(key)
    return tr(switch.help) if switch is not None else ""


def value_label(module, key: str, value) -> str:
    if isinstance(value, bool):
        return str(YES if value else NO)
    words = _words(module).value(key, value)
    return _said(module, words) if words is not None else _readable(value)


def preset_label(module, name: str) -> str:
    words = _words(module).presets.get(name)
    return _said(module, words) if words is not None else _readable(name)


def play_name(module, code: str) -> str:
    """A reading's type in words ("connected pairs"); the code itself when the game has no name for it."""
    words = _words(module).plays.get(code)
    return _said(module, words) if words is not None else _readable(code)


def tally_label(module, figure: str) -> str:
    words = _words(module).tallies.get(figure)
    return _said(module, words) if words is not None else _readable(figure)


def standard_preset(module, name: str) -> bool:
    """The preset only repeats the game's standard rules (the pages offer it as "Standard rules")."""
    return module.rules_from_dict(None, preset=name) == module.rules_from_dict(None)


def preset_choices(module) -> list:
    """(code, words) of a game's presets, without the one that only repeats the standard rules."""
    return [(p, preset_label(module, p)) for p in module.PRESETS if not standard_preset(module, p)]


def rule_sentence(module, key: str, value) -> str:
    """One line of the table page's house rules: "Number of decks: always 1 deck"."""
    from flask_babel import gettext

    return gettext("%(switch)s: %(value)s", switch=switch_label(module, key), value=value_label(module, key, value))


def first_dealer_label(module) -> str:
    words = _words(module).first_dealer
    return _said(module, words) if words is not None else str(_l("Who deals first (optional)"))


def tagged(module, arch) -> bool:
    """The hand list marks this outcome kind with a tag (its name)."""
    return arch in _words(module).tagged_outcomes


def init_app(app) -> None:
    app.jinja_env.globals.update(switch_label=switch_label, switch_help=switch_help, value_label=value_label,
                                 preset_label=preset_label, rule_sentence=rule_sentence, play_name=play_name,
                                 tally_label=tally_label, outcome_tagged=tagged)
