"""People across tables on a phone (390×844): link Ann at two tables, open her page, search the past
tables by a name. Screenshots of the person page in English, Chinese and Arabic under
tests/e2e/artifacts/ (git-ignored; CI keeps them)."""
from playwright.sync_api import Page, expect

from companion import access, scoring

from e2e_helpers import screenshots_in_languages



def test_link_a_player_at_two_tables_and_follow_her_across_them(page: Page, live_server):
    with live_server.app.app_context():
        friday = scoring.create_table(game="gandengyan", name="Friday", players=["Ann", "李小龙", "Bo"],
                                      stake="1", currency="¥")
        saturday = scoring.create_table(game="gandengyan", name="Saturday", players=["李小龙", "Ann", "Cy"],
                                        stake="2", currency="¥")
        scoring.record_hand(friday, {"winner": "Ann", "losers": {"李小龙": {"cards": 2}, "Bo": {"cards": 1}}},
                            request_id="f1")  # Ann +3 (3 ¥)
        scoring.record_hand(saturday, {"winner": "Cy", "losers": {"李小龙": {"cards": 1}, "Ann": {"cards": 4}}},
                            request_id="s1")  # Ann −4 (−8 ¥)
        links = [(t.public_id, access.edit_token(t)) for t in (friday, saturday)]
    for public_id, key in links:
        page.goto(f"{live_server}/t/{public_id}#key={key}")
        expect(page.locator("#record")).to_be_visible(timeout=15_000)  # the join posts, then reloads: slow under load

    # Friday: Ann becomes a person (explicitly: nothing is linked by name).
    page.goto(f"{live_server}/t/{links[0][0]}/people")
    assert page.locator("#player_0").input_value() == ""
    page.select_option("#player_0", "new")
    page.locator("#link-players button[type=submit]").click()
    expect(page.locator("#linked-now")).to_contain_text("Ann")

    # Saturday: the same Ann is offered (she is linked at this phone's Friday); choose her.
    page.goto(f"{live_server}/t/{links[1][0]}/people")
    option = page.locator("#player_1 option", has_text="Ann").first
    page.select_option("#player_1", option.get_attribute("value"))
    page.locator("#link-players button[type=submit]").click()
    page.locator("#linked-now a", has_text="Ann").click()

    # Her page: both tables, −1 point and −5 ¥ in all.
    expect(page.locator("#person-totals")).to_contain_text("−1")
    expect(page.locator("#money-totals")).to_contain_text("−5 ¥")
    expect(page.locator("#chart svg")).to_be_visible()
    screenshots_in_languages(page, page.url, "person")

    # Past tables: a part of a name finds exactly the tables it is in.
    page.goto(f"{live_server}/tables?lang=en")
    page.fill("input[name=q]", "cy")
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_contain_text("Saturday")
    expect(page.locator("main")).not_to_contain_text("Friday")
