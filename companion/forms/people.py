"""The form linking a table's players to people (Flask-WTF, CSRF on): one select per player, named
by seat (names are any Unicode). The choices come from companion.sharing.people; which person is allowed is
judged there (one message whatever the face), so the selects do not validate their choice."""
from __future__ import annotations

from flask_babel import gettext as _
from flask_wtf import FlaskForm
from flask_babel import lazy_gettext as _l
from wtforms import SelectChoice, SelectField, StringField

from ..db.models import Table
from ..scoring import PLAYER_NAME_MAX
from ..sharing.people import NEW, Offer


class LinkPlayersForm(FlaskForm):
    """``player_<seat>`` selects, added per table by :func:`link_players_form`."""

    def player_fields(self):
        return [self[name] for name in self._player_names]

    def links(self, table: Table) -> dict[int, str | None]:
        """{player id: person public id | "new" | None} as chosen."""
        return {p.id: (self[f"player_{p.seat}"].data or None) for p in table.players}

    def field_for(self, table: Table, field_path: str | None):
        """The select a service error's field (``links.<player id>``) names, if any."""
        key = (field_path or "").partition(".")[2]
        for p in table.players:
            if str(p.id) == key:
                return self[f"player_{p.seat}"]
        return None


def link_players_form(table: Table, offers: list[Offer], current: dict[int, str], formdata=None) -> LinkPlayersForm:
    """``current``: {player id: linked person's public id}, the selects' starting choice."""

    class Form(LinkPlayersForm):
        pass

    names = []
    for p in table.players:
        choices = [SelectChoice("", _("Not linked"))]
        for offer in offers:
            label = offer.name + (f" · {', '.join(offer.tables)}" if offer.tables else "")
            choices.append(SelectChoice(offer.public_id, label))
        choices.append(SelectChoice(NEW, _("New person: %(name)s", name=p.name)))
        setattr(Form, f"player_{p.seat}", SelectField(p.name, choices=choices, default=current.get(p.id, ""),
                                                      validate_choice=False))
        names.append(f"player_{p.seat}")
    Form._player_names = names
    return Form(formdata=formdata)


class PersonNameForm(FlaskForm):
    """Rename a person (companion.sharing.people.rename_person judges the name)."""

    name = StringField(_l("Name"), render_kw={"autocomplete": "off", "maxlength": PLAYER_NAME_MAX, "required": True})
