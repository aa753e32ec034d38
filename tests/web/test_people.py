"""People across tables (issue 11, item 6): explicit links, a person's page, the searchable past tables."""
import re
from decimal import Decimal

from sqlalchemy import func, select

from companion.sharing import people
from companion import scoring
from companion.extensions import db
from companion.db.models import Person, Player

from web_helpers import hidden, snapshot, text_of


def record(table, facts, rid):
    return scoring.record_hand(table, facts, request_id=rid)


def player(table, name):
    return next(p for p in table.players if p.name == name)


def select_name(table, name):
    return f"player_{player(table, name).seat}"


def link(client, table, choices, **extra):
    """POST the link form: {player name: person public id | "new" | ""}."""
    data = {select_name(table, name): value for name, value in choices.items()}
    data.update(extra)
    return client.post(f"/t/{table.public_id}/people", data=data)


def person_of(table, name):
    db.session.expire_all()
    person_id = db.session.scalar(select(Player.person_id).where(Player.id == player(table, name).id))
    return db.session.get(Person, person_id) if person_id else None


def links_state():
    db.session.expire_all()
    return sorted(db.session.execute(select(Player.id, Player.person_id)).all()), \
        db.session.scalar(select(func.count(Person.id)))


def saturday():
    return scoring.create_table(game="gandengyan", name="Saturday", players=["Anna", "Xi", "Yu"], stake="2",
                                currency="¥")


def test_one_person_at_two_tables_adds_up_on_their_page(client, gdy, writer):
    """Ann at Friday (stake 0.5 ¥) and Anna at Saturday (stake 2 ¥), linked: the page shows both tables and the
    totals by hand: Friday +6 −4 = +2 points (1 ¥; a void hand counts nothing), Saturday −3 points (−6 ¥);
    in all −1 point, −5 ¥, running totals +2 then −1."""
    record(gdy, {"winner": "Ann", "losers": {"Bo": {"cards": 2}, "Cy": {"cards": 1}, "Di": {"cards": 3}}}, "a")
    record(gdy, {"winner": "Bo", "losers": {"Ann": {"cards": 4}, "Cy": {"cards": 1}, "Di": {"cards": 1}}}, "b")
    hand = record(gdy, {"winner": "Ann", "losers": {"Bo": {"cards": 9}, "Cy": {"cards": 9}, "Di": {"cards": 9}}}, "c")
    scoring.void_hand(gdy, 3, revision=hand.revision)
    sat = saturday()
    record(sat, {"winner": "Xi", "losers": {"Anna": {"cards": 3}, "Yu": {"cards": 2}}}, "d")
    writer(gdy)
    writer(sat)
    assert link(client, gdy, {"Ann": "new"}).status_code == 303
    ann = person_of(gdy, "Ann")
    assert ann is not None and ann.name == "Ann"
    page = client.get(f"/t/{sat.public_id}/people").get_data(as_text=True)
    assert f'value="{ann.public_id}"' in page  # offered at Saturday: Ann is linked at this phone's Friday
    assert link(client, sat, {"Anna": ann.public_id}).status_code == 303
    assert person_of(sat, "Anna").id == ann.id
    assert person_of(gdy, "Bo") is None and person_of(sat, "Xi") is None

    response = client.get(f"/p/{ann.public_id}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    rows = re.findall(r'<tr id="session-(\d)" data-table="([^"]+)">(.*?)</tr>', html, flags=re.S)
    assert [r[1] for r in rows] == [gdy.public_id, sat.public_id]  # oldest first
    cells = [re.findall(r'class="(?:delta |running )?(points|money|running-total)" dir="ltr">([^<]*)<', r[2])
             for r in rows]
    assert cells[0] == [("points", "+2"), ("money", "+1 ¥"), ("running-total", "+2")]
    assert cells[1] == [("points", "−3"), ("money", "−6 ¥"), ("running-total", "−1")]
    totals = re.search(r'<table class="standings" id="person-totals">(.*?)</table>', html, flags=re.S).group(1)
    assert re.search(r'data-game="gandengyan">.*?<td class="num" dir="ltr">3</td><td class="num points" '
                     r'dir="ltr">−1</td>', totals)
    assert re.search(r'data-currency="¥">[^<]*<b dir="ltr">−5 ¥</b>', html)
    svg = re.search(r"<svg.*?</svg>", html, flags=re.S).group(0)
    assert "<title" in svg and "<desc" in svg and "<script" not in svg and "Ann" in svg

    figures = people.person_page(ann)
    assert figures.points == {"gandengyan": -1} and figures.money == {"¥": Decimal("-5")}
    assert [(s.hands, s.points, s.running) for s in figures.sessions] == [(2, 2, 2), (1, -3, -1)]


def test_a_phone_that_may_not_record_cannot_link(client, gdy):
    before = links_state()
    response = link(client, gdy, {"Ann": "new"})
    assert response.status_code == 403
    assert links_state() == before
    page = client.get(f"/t/{gdy.public_id}/people")
    assert page.status_code == 200 and 'id="links-read-only"' in page.get_data(as_text=True)
    assert "<select" not in page.get_data(as_text=True)


def test_linking_needs_the_csrf_token(app, client, gdy, writer):
    writer(gdy)
    app.config["WTF_CSRF_ENABLED"] = True
    before = links_state()
    assert link(client, gdy, {"Ann": "new"}).status_code == 400
    assert links_state() == before
    token = hidden(client.get(f"/t/{gdy.public_id}/people"), "csrf_token")
    assert token
    assert link(client, gdy, {"Ann": "new"}, csrf_token=token).status_code == 303
    assert person_of(gdy, "Ann") is not None


def test_two_players_of_one_table_cannot_be_one_person(client, gdy, writer):
    writer(gdy)
    assert link(client, gdy, {"Ann": "new"}).status_code == 303
    ann = person_of(gdy, "Ann")
    before, stored = links_state(), snapshot()
    response = link(client, gdy, {"Ann": ann.public_id, "Bo": ann.public_id})
    assert response.status_code == 400
    assert "Ann and Bo are linked to the same person" in text_of(response)
    assert re.search(rf'<select[^>]*aria-invalid="true"[^>]*name="{select_name(gdy, "Bo")}"|'
                     rf'<select[^>]*name="{select_name(gdy, "Bo")}"[^>]*aria-invalid="true"',
                     response.get_data(as_text=True))
    assert links_state() == before and snapshot() == stored  # nothing changed, not even the table's revision


def test_a_person_not_offered_to_this_phone_is_refused(app, client, gdy, writer):
    """Someone linked only at a table this phone does not have cannot be chosen, nor their page opened."""
    sat = saturday()
    other = app.test_client()
    writer(sat)  # (the fixture's client)
    assert link(client, sat, {"Anna": "new"}).status_code == 303
    anna = person_of(sat, "Anna")
    # a second phone that has only Friday
    from companion import access

    assert other.post(f"/t/{gdy.public_id}/join", data={"key": access.edit_token(gdy)}).status_code == 303
    assert f'value="{anna.public_id}"' not in other.get(f"/t/{gdy.public_id}/people").get_data(as_text=True)
    before = links_state()
    response = link(other, gdy, {"Ann": anna.public_id})
    assert response.status_code == 400 and "This person cannot be chosen here" in text_of(response)
    assert links_state() == before
    assert other.get(f"/p/{anna.public_id}").status_code == 404
    assert client.get(f"/p/{anna.public_id}").status_code == 200
    with_junk = link(other, gdy, {"Ann": "x" * 5000})
    assert with_junk.status_code == 400 and links_state() == before


def test_the_service_refuses_a_player_of_another_table(gdy):
    sat = saturday()
    before = links_state()
    try:
        people.link_players(gdy, {player(sat, "Anna").id: people.NEW}, offered_from=[gdy.id])
    except scoring.ScoringError as error:
        assert error.code == "unknown_player"
    else:
        raise AssertionError("a player of another table was linked")
    assert links_state() == before


def test_nothing_links_by_name(client, gdy, writer):
    """Two tables with an "Ann": separate people (none at all) until someone links them."""
    other = scoring.create_table(game="gandengyan", name="Other", players=["Ann", "Zed"])
    writer(gdy)
    writer(other)
    assert link(client, gdy, {"Ann": "new"}).status_code == 303
    assert person_of(other, "Ann") is None
    html = client.get(f"/t/{other.public_id}/people").get_data(as_text=True)
    select_html = re.search(rf'<select[^>]*name="{select_name(other, "Ann")}".*?</select>', html, flags=re.S).group(0)
    assert re.search(r'<option selected value="">|<option value="" selected>', select_html)  # "Not linked" chosen
    ann = person_of(gdy, "Ann")
    assert client.get(f"/p/{ann.public_id}").get_data(as_text=True).count('id="session-') == 1
    assert link(client, other, {"Ann": "new"}).status_code == 303  # a new person: still not the same one
    assert person_of(other, "Ann").id != ann.id
    assert link(client, other, {"Ann": ann.public_id}).status_code == 303
    assert person_of(other, "Ann").id == ann.id
    assert client.get(f"/p/{ann.public_id}").get_data(as_text=True).count('id="session-') == 2
    assert client.post(f"/t/{other.public_id}/people", data={}).status_code == 303  # no select sent: kept
    assert person_of(other, "Ann").id == ann.id
    assert link(client, other, {"Ann": ""}).status_code == 303  # unlinked again
    assert person_of(other, "Ann") is None


def found_tables(client, q=None, page=None):
    args = {k: v for k, v in (("q", q), ("page", page)) if v is not None}
    response = client.get("/tables", query_string=args)
    assert response.status_code == 200
    return re.findall(r'<li class="hand" data-table="([^"]+)">', response.get_data(as_text=True))


def test_search_by_part_of_a_name_any_case(ctx, client, writer):
    a = scoring.create_table(game="gandengyan", name="A", players=["Joanna", "Bo"])
    b = scoring.create_table(game="gandengyan", name="B", players=["ANN", "Cy"])
    c = scoring.create_table(game="dagong", name="C", players=["P1", "P2", "P3", "P4"], first_dealer="P1")
    d = scoring.create_table(game="gandengyan", name="D", players=["annie", "Di"])  # not this phone's
    for t in (a, b, c):
        writer(t)
    assert set(found_tables(client, "ann")) == {a.public_id, b.public_id}
    assert set(found_tables(client, "Ａnn")) == {a.public_id, b.public_id}  # full-width: NFKC
    assert found_tables(client, "p3") == [c.public_id]
    assert found_tables(client, "zz") == []
    assert found_tables(client) == [c.public_id, b.public_id, a.public_id]  # all, newest first
    assert d.public_id not in found_tables(client, "annie") + found_tables(client)


def test_percent_and_underscore_are_literal(ctx, client, writer):
    a = scoring.create_table(game="gandengyan", name="A", players=["50%", "a_b"])
    b = scoring.create_table(game="gandengyan", name="B", players=["500", "axb"])
    for t in (a, b):
        writer(t)
    assert found_tables(client, "%") == [a.public_id]
    assert found_tables(client, "_") == [a.public_id]
    assert found_tables(client, "a_b") == [a.public_id]
    assert found_tables(client, "\\") == []


def test_the_list_shows_date_game_players_hands_and_result(client, gdy, writer):
    record(gdy, {"winner": "Bo", "losers": {"Ann": {"cards": 2}, "Cy": {"cards": 1}, "Di": {"cards": 3}}}, "a")
    writer(gdy)
    html = client.get("/tables").get_data(as_text=True)
    item = re.search(rf'data-table="{gdy.public_id}">(.*?)</li>', html, flags=re.S).group(1)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", item))
    assert gdy.created_at.strftime("%Y-%m-%d") in text and "干瞪眼" in text and "1 hand" in text
    assert "Ann , Bo , Cy , Di" in text
    assert re.search(r"Leading: Bo \+6", text)


def test_pagination(ctx, client, writer):
    made = [scoring.create_table(game="gandengyan", name=f"T{i}", players=["Kim", f"X{i}"]) for i in range(23)]
    for t in made[-20:]:  # a phone remembers its latest 20 tables
        writer(t)
    newest = [t.public_id for t in reversed(made[-20:])]
    first = found_tables(client, "kim")
    assert first == newest[:people.PER_PAGE] and len(first) == 20
    links = people.search_tables([t.id for t in made], "kim", page=2, per_page=10)
    assert links.total == 23 and links.pages == 3 and len(links.rows) == 10
    assert [r.name for r in links.rows] == [f"T{i}" for i in range(12, 2, -1)]
    assert people.search_tables([t.id for t in made], "kim", page=3, per_page=10).rows[-1].name == "T0"
    assert client.get("/tables", query_string={"q": "kim", "page": 2}).status_code == 404
    assert client.get("/tables", query_string={"page": "x"}).status_code == 200


def test_a_persons_tables_are_listed_and_searchable_from_a_linked_phone(app, client, gdy, writer):
    """Friday's phone links Ann to the person Anna is at Saturday: Saturday then shows in its list."""
    sat = saturday()
    writer(sat)
    assert link(client, sat, {"Anna": "new"}).status_code == 303
    anna = person_of(sat, "Anna")
    other = app.test_client()
    from companion import access

    other.post(f"/t/{gdy.public_id}/join", data={"key": access.edit_token(gdy)})
    assert found_tables(other) == [gdy.public_id]
    # the other phone cannot be offered Anna; a phone with both tables links them
    writer(gdy)
    assert link(client, gdy, {"Ann": anna.public_id}).status_code == 303
    assert set(found_tables(other)) == {gdy.public_id, sat.public_id}
    assert found_tables(other, "xi") == [sat.public_id]
    assert other.get(f"/p/{anna.public_id}").status_code == 200


def test_unknown_person_is_404(ctx, client):
    for path in ("/p/nope", "/p/" + "x" * 22, "/p/" + "x" * 300):
        assert client.get(path).status_code == 404


def test_the_new_pages_answer_junk_without_a_server_error(client, gdy, writer):
    writer(gdy)
    for q in ("", "%", "_", "\\", "'", "x" * 5000, "\ud800".encode("utf-8", "surrogatepass").decode("latin-1"),
              "\x00", "ＡＮＮ"):
        assert client.get("/tables", query_string={"q": q, "page": "-1"}).status_code < 500
    for value in ("", "new", "x" * 5000, "\x00"):
        assert link(client, gdy, {"Ann": value}).status_code < 500
    assert client.post(f"/t/{gdy.public_id}/people", data={"player_99": "new"}).status_code < 500
    assert client.get("/t/nope/people").status_code == 404


def test_a_person_can_be_renamed_and_a_bad_name_changes_nothing(client, gdy, writer):
    writer(gdy)
    assert link(client, gdy, {"Ann": "new"}).status_code in (302, 303)
    ann = person_of(gdy, "Ann")
    page = f"/p/{ann.public_id}"
    assert client.post(f"{page}/name", data={"name": "  Ann  Lee "}).status_code == 302
    db.session.expire_all()
    assert db.session.get(Person, ann.id).name == "Ann Lee"
    assert player(gdy, "Ann").name == "Ann"  # the table keeps its own name
    for bad in ("", "x" * 41, "A\u202eB"):
        answer = client.post(f"{page}/name", data={"name": bad})
        assert answer.status_code == 400 and 'id="name-error"' in answer.get_data(as_text=True), bad
        db.session.expire_all()
        assert db.session.get(Person, ann.id).name == "Ann Lee"


def test_a_phone_that_does_not_know_the_person_cannot_rename_them(app, client, gdy, writer):
    writer(gdy)
    link(client, gdy, {"Ann": "new"})
    ann = person_of(gdy, "Ann")
    stranger = app.test_client()
    assert stranger.post(f"/p/{ann.public_id}/name", data={"name": "Mallory"}).status_code == 404
    db.session.expire_all()
    assert db.session.get(Person, ann.id).name == "Ann"


def test_a_person_nobody_is_linked_to_any_more_is_removed(client, gdy, writer):
    writer(gdy)
    sat = saturday()
    writer(sat)
    link(client, gdy, {"Ann": "new", "Bo": "new"})
    ann, bo = person_of(gdy, "Ann"), person_of(gdy, "Bo")
    link(client, sat, {"Anna": ann.public_id})
    assert link(client, gdy, {"Ann": "", "Bo": ""}).status_code == 303
    db.session.expire_all()
    assert db.session.get(Person, bo.id) is None  # linked nowhere: gone
    assert db.session.get(Person, ann.id) is not None  # still Anna at Saturday: kept
    assert person_of(sat, "Anna").id == ann.id


def test_search_ignores_case_in_every_alphabet(client, ctx, writer):
    """Not only A–Z, on both databases: "élodie" finds "Élodie", "ΣΟΦ" finds "Σοφια"; "ELODIE" finds only "Elodie"."""
    accents = scoring.create_table(game="gandengyan", name="Accents", players=["Élodie", "Σοφια", "Bo"])
    plain = scoring.create_table(game="gandengyan", name="Plain", players=["Elodie", "Sofia", "Bo"])
    writer(accents)
    writer(plain)
    ids = [accents.id, plain.id]
    assert [t.name for t in people.search_tables(ids, "élodie").rows] == ["Accents"]
    assert [t.name for t in people.search_tables(ids, "ΣΟΦ").rows] == ["Accents"]
    assert [t.name for t in people.search_tables(ids, "ELODIE").rows] == ["Plain"]  # É is not E
