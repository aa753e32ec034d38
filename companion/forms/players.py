"""The form that changes who sits at a table between hands (issue 21): per seated player their name
(rename), "replaced by" (a substitute takes the seat), "leaves" and a seat; then empty rows for
players who join, as many as the engine lets the table hold. Flask-WTF, CSRF on. Fields are named
by row number (names are any Unicode); scoring.change_players judges everything."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, SelectChoice, SelectField, StringField

from ..db.models import Table
from ..scoring import PLAYER_NAME_MAX


class PlayersForm(FlaskForm):
    """Rows ``name_<i>``, ``sub_<i>``, ``leave_<i>``, ``seat_<i>`` (seated players, ``was`` their
    current name) and ``new_<j>``, ``newseat_<j>`` (joiners); see :func:`players_form`."""

    def roster(self) -> tuple[list, list]:
        """(the entries for scoring.change_players in seat order, the form field of each entry). A
        row whose seat was changed takes that seat (or the nearest free one); the others keep their
        order in the seats left."""
        rows = []  # (chosen seat or None when unchanged, entry, field)
        for i, was in enumerate(self._seated):
            name, sub = self[f"name_{i}"], self[f"sub_{i}"]
            if (sub.data or "").strip():
                rows.append((self._moved(f"seat_{i}", i), sub.data, sub))
            elif not self[f"leave_{i}"].data:
                rows.append((self._moved(f"seat_{i}", i), {"name": name.data or "", "was": was}, name))
        for j in range(self._new):
            new = self[f"new_{j}"]
            if (new.data or "").strip():
                rows.append((self._moved(f"newseat_{j}", self._new_default(j)), new.data, new))
        slots: list = [None] * len(rows)
        for seat, entry, field in sorted((r for r in rows if r[0] is not None), key=lambda r: r[0]):
            free = [k for k in range(len(slots)) if slots[k] is None]
            slots[min(free, key=lambda k: (abs(k - seat), k))] = (entry, field)
        rest = iter(r for r in rows if r[0] is None)
        slots = [slot if slot is not None else next(rest)[1:] for slot in slots]
        return [slot[0] for slot in slots], [slot[1] for slot in slots]

    def _new_default(self, j: int) -> int:
        return len(self._seated) + j

    def _moved(self, key: str, default: int) -> int | None:
        """The seat (0-based) chosen in ``key`` when it is not the row's own, else None."""
        value = self[key].data
        seat = int(value) - 1 if isinstance(value, str) and value.isdigit() else default
        return None if seat == default else seat

    def rows(self):
        """(name, replaced-by, leaves, seat) fields of each seated player, for the template."""
        return [(self[f"name_{i}"], self[f"sub_{i}"], self[f"leave_{i}"], self[f"seat_{i}"])
                for i in range(len(self._seated))]

    def new_rows(self):
        return [(self[f"new_{j}"], self[f"newseat_{j}"]) for j in range(self._new)]


def players_form(table: Table, most: int, formdata=None) -> PlayersForm:
    """The form for ``table``; ``most``: how many may sit at it (the engine's range)."""
    seated = table.player_names

    class Form(PlayersForm):
        pass

    seats = [SelectChoice(str(n), str(n)) for n in range(1, most + 1)]
    text = {"autocomplete": "off", "maxlength": PLAYER_NAME_MAX}
    for i, name in enumerate(seated):
        setattr(Form, f"name_{i}", StringField(_l("Name"), default=name, render_kw=text))
        setattr(Form, f"sub_{i}", StringField(_l("Replaced by (a substitute takes this seat)"), render_kw=text))
        setattr(Form, f"leave_{i}", BooleanField(_l("Leaves the table (keeps their total)")))
        setattr(Form, f"seat_{i}", SelectField(_l("Seat"), choices=seats, default=str(i + 1), validate_choice=False))
    new = max(0, most - len(seated))
    for j in range(new):
        setattr(Form, f"new_{j}", StringField(_l("New player"), render_kw=text))
        setattr(Form, f"newseat_{j}", SelectField(_l("Seat"), choices=seats, default=str(len(seated) + j + 1),
                                                  validate_choice=False))
    Form._seated, Form._new = seated, new
    return Form(formdata=formdata)
