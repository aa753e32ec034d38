"""Issue 21 item 4, in a phone's browser (390×844): a hand with several mistakes is saved once and
the page shows every one, each beside its own field, with everything typed still in the form; fixing
them records the hand. The twin with one mistake shows exactly one message."""
import re

import pytest
from playwright.sync_api import Page, expect

from companion import access, scoring
from e2e_helpers import shot

RULES = {"played_bomb_mult": "double", "shut_out": "double"}   # the form asks for bombs and "never played"


def _table(live_server, game, players, **kw):
    with live_server.app.app_context():
        table = scoring.create_table(game=game, name="errors", players=players, **kw)
        return table.public_id, access.edit_token(table)


def _hands_recorded(live_server, public_id) -> int:
    with live_server.app.app_context():
        return scoring.hand_counts(scoring.get_table(public_id))[1]


def _gandengyan_form(page: Page, live_server, lang: str = "en"):
    public_id, token = _table(live_server, "gandengyan", ["Ann", "Bo", "Cy", "Dee"], first_dealer="Bo", rules=RULES)
    page.goto(f"{live_server}/t/{public_id}?lang={lang}#key={token}")   # join.js joins this phone
    page.click("#record")
    expect(page.locator("#dealer")).to_have_value("Bo")
    page.locator("#winner-field label.pill", has_text="Ann").click()
    for seat, cards, jokers in ((1, "5", "2"), (2, "4", "2"), (3, "4", "0")):
        page.click(f"#cards_{seat}-field .chip[data-value='{cards}']")
        page.click(f"#jokers_{seat}-field .chip[data-value='{jokers}']")
    return public_id


def test_three_mistakes_shown_at_once_beside_their_fields_then_fixed(page: Page, live_server):
    public_id = _gandengyan_form(page, live_server)
    page.click("#jokers_3-field .chip[data-value='1']")      # five jokers held, but two decks hold four
    page.check("#never_played_1")                            # the dealer never shut out
    page.fill("#bombs_played", "13")                         # two decks make bombs of 4 to 12 cards
    page.click("#save-hand")

    expect(page.locator("#form-error")).to_be_visible()
    expect(page.locator(".field-error")).to_have_count(3)    # one round trip, every mistake
    expect(page.locator("#never_played_1-error")).to_contain_text("dealer")
    expect(page.locator("#jokers_3-field .field-error")).to_contain_text("5 jokers")
    expect(page.locator("#bombs_played-field .field-error")).to_contain_text("13")
    for field in ("never_played_1", "jokers_3", "bombs_played"):               # each message beside its own field
        expect(page.locator(f"#{field}")).to_have_attribute("aria-invalid", "true")
    # everything typed is still there
    expect(page.locator("#winner-field input[data-name='Ann']")).to_be_checked()
    for seat, cards, jokers in ((1, "5", "2"), (2, "4", "2"), (3, "4", "1")):
        expect(page.locator(f"#cards_{seat}")).to_have_value(cards)
        expect(page.locator(f"#jokers_{seat}")).to_have_value(jokers)
    expect(page.locator("#never_played_1")).to_be_checked()
    expect(page.locator("#bombs_played")).to_have_value("13")
    expect(page.locator("#dealer")).to_have_value("Bo")
    shot(page, "all-errors-gandengyan-en")
    assert _hands_recorded(live_server, public_id) == 0

    page.click("#jokers_3-field .chip[data-value='0']")
    page.uncheck("#never_played_1")
    page.fill("#bombs_played", "4")
    page.click("#save-hand")
    expect(page.locator("#saved")).to_be_visible()
    assert _hands_recorded(live_server, public_id) == 1


@pytest.mark.parametrize("lang, script", [("zh", r"[\u4e00-\u9fff]"), ("ar", r"[\u0600-\u06ff]")])
def test_three_mistakes_in_other_languages(page: Page, live_server, lang, script):
    _gandengyan_form(page, live_server, lang)
    page.click("#jokers_3-field .chip[data-value='1']")
    page.check("#never_played_1")
    page.fill("#bombs_played", "13")
    page.click("#save-hand")
    expect(page.locator("#form-error")).to_be_visible()
    expect(page.locator(".field-error")).to_have_count(3)
    for message in page.locator(".field-error").all_inner_texts():   # each one in the page's language
        assert re.search(script, message), (lang, message)
    shot(page, f"all-errors-gandengyan-{lang}", fits=True)


def test_one_mistake_shows_exactly_one_message(page: Page, live_server):
    public_id = _gandengyan_form(page, live_server)
    page.fill("#bombs_played", "13")
    page.click("#save-hand")
    expect(page.locator("#bombs_played-field .field-error")).to_contain_text("13")
    expect(page.locator(".field-error")).to_have_count(1)
    expect(page.locator("#jokers_3")).to_have_value("0")
    assert _hands_recorded(live_server, public_id) == 0


def test_dagong_two_mistakes_shown_at_once(page: Page, live_server):
    public_id, token = _table(live_server, "dagong", ["Li", "Wang", "Zhang", "Zhao"], first_dealer="Li")
    page.goto(f"{live_server}/t/{public_id}#key={token}")
    page.click("#record")
    page.locator("#partner-field label.pill", has_text="Zhang").click()
    for name in ("Li", "Wang", "Zhang"):                     # Zhao is fourth
        page.locator(".tap-order button.tap", has_text=name).click()
    page.fill("#captured_0", "33")                           # not a multiple of 5
    page.fill("#captured_1", "50")
    page.fill("#captured_2", "30")
    page.fill("#captured_3", "85")                           # 198 in all: checked once Li reads
    page.fill("#bright_card", "zz")                          # not a card
    page.click("#save-hand")

    expect(page.locator("#form-error")).to_be_visible()
    expect(page.locator(".field-error")).to_have_count(2)
    expect(page.locator("#bright_card-field .field-error")).to_contain_text("zz")
    expect(page.locator("#captured_0-field .field-error")).to_contain_text("33")
    expect(page.locator("#captured_0")).to_have_value("33")
    expect(page.locator("#bright_card")).to_have_value("zz")
    expect(page.locator("#order_4")).to_have_value("Zhao")
    shot(page, "all-errors-dagong-en")
    assert _hands_recorded(live_server, public_id) == 0

    page.fill("#captured_0", "35")
    page.fill("#bright_card", "7h")
    page.click("#save-hand")
    expect(page.locator("#saved")).to_be_visible()
    assert _hands_recorded(live_server, public_id) == 1


def test_no_winner_and_impossible_counts_all_at_once(page: Page, live_server):
    """Issue 33 item 6: Save with no winner tapped, 99 cards and 3 jokers with 1 card: one answer
    names all three, each beside its field (the twin, fixed, records the hand)."""
    public_id, token = _table(live_server, "gandengyan", ["Ann", "Bo", "Cy", "Dee"], first_dealer="Bo")
    page.goto(f"{live_server}/t/{public_id}#key={token}")
    page.click("#record")
    page.click("#cards_1-field .chip.more")
    page.fill("#cards_1", "99")
    page.click("#cards_2-field .chip[data-value='1']")
    page.click("#jokers_2-field .chip[data-value='3']")
    page.click("#cards_3-field .chip[data-value='2']")
    page.click("#save-hand")

    expect(page.locator("#form-error")).to_be_visible()
    expect(page.locator("#winner-field .field-error")).to_contain_text("went out first")
    expect(page.locator("#cards_1-field .field-error")).to_contain_text("99")
    expect(page.locator("#jokers_2-field .field-error")).to_contain_text("3 jokers")
    shot(page, "all-errors-no-winner-en")
    expect(page.locator(".field-error")).to_have_count(3)
    expect(page.locator("#cards_1")).to_have_value("99")   # what was typed stays
    assert _hands_recorded(live_server, public_id) == 0

    page.locator("#winner-field label.pill", has_text="Ann").click()
    page.fill("#cards_1", "9")
    page.click("#jokers_2-field .chip[data-value='0']")
    page.click("#save-hand")
    expect(page.locator("#saved")).to_be_visible()
    assert _hands_recorded(live_server, public_id) == 1
