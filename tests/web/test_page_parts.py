"""The parts of the table page kept per table revision (companion/pagecache.table_part) and the
footer kept per language and table (language_part): each phone still sees its own page — the
links it may use, the address it opened, its language — and a change shows at once."""
from companion import access, scoring

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def new_table(app, name="Parts"):
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name=name, players=PLAYERS, stake="0.5")
        return table.public_id, access.edit_token(table)


def test_a_recorder_and_a_watcher_each_see_their_own_links(app):
    public_id, token = new_table(app)
    watcher, recorder = app.test_client(), app.test_client()
    assert recorder.post(f"/t/{public_id}/join", data={"key": token}).status_code == 303
    for _ in range(2):  # drawn, then kept
        watching = watcher.get(f"/t/{public_id}").get_data(as_text=True)
        recording = recorder.get(f"/t/{public_id}").get_data(as_text=True)
        assert 'id="settings-link"' not in watching and 'id="share-record"' not in watching
        assert 'id="settings-link"' in recording and 'id="share-record"' in recording
        assert f"#key={token}" in recording and "#key=" not in watching
        assert 'id="share-watch"' in watching and 'id="history' not in watching.split('id="review"')[0]


def test_the_share_links_follow_the_address_the_page_was_opened_on(app_maker):
    app = app_maker(TRUSTED_HOSTS=["cards.lan", "other.lan"])
    public_id, _token = new_table(app)
    client = app.test_client()
    first = client.get(f"/t/{public_id}", base_url="http://cards.lan").get_data(as_text=True)
    second = client.get(f"/t/{public_id}", base_url="http://other.lan").get_data(as_text=True)
    assert f"http://cards.lan/t/{public_id}" in first and "other.lan" not in first
    assert f"http://other.lan/t/{public_id}" in second and "cards.lan" not in second


def test_a_new_record_link_shows_at_once(app):
    public_id, token = new_table(app)
    recorder = app.test_client()
    assert recorder.post(f"/t/{public_id}/join", data={"key": token}).status_code == 303
    assert f"#key={token}" in recorder.get(f"/t/{public_id}").get_data(as_text=True)
    with app.app_context():
        table = scoring.get_table(public_id)
        new_token = access.reset_token(table)
    assert new_token != token
    recorder = app.test_client()
    assert recorder.post(f"/t/{public_id}/join", data={"key": new_token}).status_code == 303
    page = recorder.get(f"/t/{public_id}").get_data(as_text=True)
    assert f"#key={new_token}" in page and f"#key={token}" not in page


def test_the_footer_names_its_table_and_language(app, client):
    first, _ = new_table(app, "One")
    second, _ = new_table(app, "Two")
    page = client.get(f"/t/{first}?lang=fr").get_data(as_text=True)
    assert f"/t/{first}/rules" in page and f"/t/{second}/" not in page.split("<footer")[1]
    assert 'lang="fr" hreflang="fr" aria-current="true"' in page
    page = client.get(f"/t/{second}?lang=zh").get_data(as_text=True)
    assert f"/t/{second}/rules" in page.split("<footer")[1] and f"/t/{first}/" not in page
    assert 'lang="zh" hreflang="zh" aria-current="true"' in page
    home = client.get("/?lang=en").get_data(as_text=True).split("<footer")[1]
    assert "/rules/" in home and "/t/" not in home  # no table: the rules of each game
