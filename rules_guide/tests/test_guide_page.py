"""The guide page: every section in both languages, every value read from the engine.

The expected values are recomputed here from ``PRESET_OPTIONS`` / ``rules_for``
and compared with what the rendered page shows, so a template or a table that
retypes a value (and gets it wrong) fails.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from games.ai import LEVELS
from games.engine import PRESET_OPTIONS, PRESETS, TILES, rules_for
from games.fairplay.fairness import VERIFY_COMMAND
from games.play.modes import RANKED_MODES
from games.play.variants import rules_url_for
from rules_guide import facts
from rules_guide.tests.html import Node, parse
from rules_guide.views import SECTIONS

LANGUAGES = ("en", "fr")


def get_page(client: Client, language: str) -> tuple[Node, str]:
    response = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    return parse(html), html


@pytest.fixture(params=LANGUAGES)
def page(request: pytest.FixtureRequest, client: Client) -> tuple[str, Node]:
    tree, _html = get_page(client, request.param)
    return request.param, tree


def expected_raw(name: str, key: str) -> str:
    """The raw value of one rule of a preset, straight from the engine."""
    options = PRESET_OPTIONS[name]
    rules = options.rules
    if key == "players":
        return ",".join(map(str, options.players))
    if key == "teams":
        return ",".join("true" if t else "false" for t in options.teams)
    if key == "targets":
        return ",".join(map(str, options.targets))
    if key == "hand_size":
        parts = []
        for players, teams in options.combinations():
            size = rules_for(name, players=players, teams=teams).deal_size
            parts.append(f"{'pairs' if teams else players}:{size}")
        return ",".join(parts)
    value = getattr(rules, key)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def test_every_section_and_variant_has_its_anchor_and_contents_link(page) -> None:
    language, tree = page
    assert tree.one("html").attrs["lang"] == language
    ids = {node.attrs["id"] for node in tree.select(id=True)}
    toc_links = {node.attrs["href"] for node in tree.one("nav", id="contents").select("a")}
    anchors = [anchor for anchor, _title in SECTIONS] + [f"variant-{name}" for name in PRESETS]
    for anchor in anchors:
        assert anchor in ids, anchor
        assert f"#{anchor}" in toc_links, anchor
    # Other pages link to these: the replay's fair-play panel (#fair), the table's clock (#timers).
    assert {"fair", "timers"} <= ids
    # Every in-page link lands somewhere.
    for link in tree.select("a"):
        href = link.attrs.get("href", "")
        if href.startswith("#"):
            assert href[1:] in ids, href
    # Every section has a heading with text.
    for anchor, _title in SECTIONS:
        section = tree.one(id=anchor)
        assert section.select("h2")[0].text()


def test_headings_speak_the_requested_language(client: Client) -> None:
    en, _ = get_page(client, "en")
    fr, _ = get_page(client, "fr")
    assert en.select("h1")[0].text() == "Rules of dominoes"
    assert fr.select("h1")[0].text() == "Règles des dominos"
    for anchor, title in SECTIONS:
        with translation.override("fr"):
            french = " ".join(str(title).split())
        with translation.override("en"):
            english = " ".join(str(title).split())
        assert french != english
        assert en.one(id=anchor).select("h2")[0].text() == english
        assert fr.one(id=anchor).select("h2")[0].text() == french


def test_french_page_has_no_english_sentence_left(client: Client) -> None:
    """Both languages are complete: no sentence of the English page shows up untranslated in French."""
    en, _ = get_page(client, "en")
    fr, _ = get_page(client, "fr")
    main_en = en.one("main")
    main_fr = fr.one("main")
    english = {text for text in main_en.texts() if len(text) >= 12 and " " in text}
    french = set(main_fr.texts())
    # The ranked modes' names belong to games.play.modes (and its catalogue), not to the guide's.
    allowed = {f"{VERIFY_COMMAND} replay.json"} | {str(mode.label) for mode in RANKED_MODES.values()}
    leftovers = sorted((english & french) - allowed)
    assert not leftovers, leftovers
    assert len(english) > 150  # the comparison really looked at the page


def test_variant_table_matches_the_presets(page) -> None:
    language, tree = page
    table = tree.one("table", data_table="variants")
    cells = table.select("td", data_preset=True)
    seen = set()
    for cell in cells:
        name, key = cell.attrs["data-preset"], cell.attrs["data-rule"]
        assert cell.attrs["data-value"] == expected_raw(name, key), (name, key)
        seen.add((name, key))
    for name in PRESETS:
        for key in (
            "draw",
            "players",
            "teams",
            "hand_size",
            "targets",
            "next_opener",
            "blocked_tie",
            "closed_board",
            "redeal_five_doubles",
        ):
            assert (name, key) in seen, (name, key)
        assert ((name, "team_scoring") in seen) == (True in PRESET_OPTIONS[name].teams)
    with translation.override(language):
        for cell in cells:
            name, key = cell.attrs["data-preset"], cell.attrs["data-rule"]
            options = PRESET_OPTIONS[name]
            rules = options.rules
            text = cell.text()
            labels = {
                "next_opener": facts.NEXT_OPENER_LABELS.get(rules.next_opener),
                "blocked_tie": facts.BLOCKED_TIE_LABELS.get(rules.blocked_tie),
                "team_scoring": facts.TEAM_SCORING_LABELS.get(rules.team_scoring),
                "draw": facts.DRAW_LABELS.get(rules.draw),
                "closed_board": facts.YES_NO[rules.closed_board],
                "redeal_five_doubles": facts.YES_NO[rules.redeal_five_doubles],
                "teams": facts.YES_NO[True in options.teams],
            }
            if key in labels:
                label = " ".join(str(labels[key]).split())
                assert text == label[:1].upper() + label[1:], (name, key, text)
            elif key == "players":
                pairs = [p for p, teams in options.combinations() if teams]
                assert [int(n) for n in text if n.isdigit()] == [*options.players, *pairs]
            elif key == "hand_size":
                sizes = {rules_for(name, players=p, teams=t).deal_size for p, t in options.combinations()}
                assert {
                    int(n) for n in text.replace(",", " ").replace(";", " ").split() if n.isdigit()
                } >= sizes
            elif key == "targets":
                numbers = [int(n) for n in text.replace(",", " ").split() if n.isdigit()]
                assert sorted(numbers) == sorted(t for t in options.targets if t)


def test_deal_table_matches_the_engine_hand_sizes(page) -> None:
    _language, tree = page
    table = tree.one("table", data_table="deals")
    shown = {}
    for row in table.select("tr", data_preset=True):
        for deal in row.select("span", data_players=True):
            shown[(row.attrs["data-preset"], deal.attrs["data-players"])] = deal
    expected = {}
    for name, options in PRESET_OPTIONS.items():
        for players, teams in options.combinations():
            rules = rules_for(name, players=players, teams=teams)
            expected[(name, "pairs" if teams else str(players))] = (
                rules.deal_size,
                len(TILES) - rules.deal_size * players,
            )
    assert set(shown) == set(expected)
    for key, (hand, rest) in expected.items():
        deal = shown[key]
        assert (int(deal.attrs["data-hand"]), int(deal.attrs["data-rest"])) == (hand, rest), key
        numbers = [int(word) for word in deal.text().replace(",", " ").split() if word.isdigit()]
        assert numbers[0] == hand
        if rest:
            assert numbers[1] == rest


def test_each_variant_section_lists_its_rules(page) -> None:
    _language, tree = page
    for name in PRESETS:
        article = tree.one("article", id=f"variant-{name}")
        for fact in article.select("div", data_rule=True):
            assert fact.attrs["data-value"] == expected_raw(name, fact.attrs["data-rule"])
        assert article.select("figure", data_example=True) or article.select("a", href=True)


def test_game_lengths_match_the_presets(page) -> None:
    _language, tree = page
    table = tree.one("table", data_table="lengths")
    rows = {row.attrs["data-preset"]: row for row in table.select("tr", data_preset=True)}
    assert set(rows) == set(PRESETS)
    for name, row in rows.items():
        assert row.attrs["data-targets"] == ",".join(map(str, PRESET_OPTIONS[name].targets))
        assert row.attrs["data-default"] == str(PRESETS[name].target)
    listed = {
        int(item.attrs["data-target"]) for item in tree.one(id="game-length").select("li", data_target=True)
    }
    assert listed == {t for options in PRESET_OPTIONS.values() for t in options.targets}


def test_ranked_modes_match_the_modes_table(page) -> None:
    _language, tree = page
    rows = tree.one("table", data_table="ranked").select("tr", data_mode=True)
    assert [row.attrs["data-mode"] for row in rows] == list(RANKED_MODES)
    for row in rows:
        mode = RANKED_MODES[row.attrs["data-mode"]]
        rules = mode.rules
        assert row.attrs["data-preset"] == mode.preset
        assert int(row.attrs["data-players"]) == rules.players
        assert row.attrs["data-teams"] == ("true" if rules.teams else "false")
        assert int(row.attrs["data-target"]) == rules.target
        deal = row.one("span", data_players=True)
        assert int(deal.attrs["data-hand"]) == rules.deal_size
        assert int(deal.attrs["data-rest"]) == len(TILES) - rules.deal_size * rules.players


def test_every_computer_level_is_described(page) -> None:
    _language, tree = page
    described = [node.attrs["data-level"] for node in tree.one(id="computer").select("dt", data_level=True)]
    assert described == list(LEVELS)
    for level in LEVELS:
        assert facts.LEVEL_DESCRIPTIONS[level]


def test_the_set_is_read_from_the_engine(page) -> None:
    _language, tree = page
    grid = tree.one("figure", **{"class": "set-grid"})
    shown = [node.attrs["data-tile"] for node in grid.select("span", data_tile=True)]
    assert shown == [f"{t.low}-{t.high}" for t in TILES]
    weights = [int(node.text()) for node in grid.select("small")]
    assert weights == [t.pips for t in TILES]


def test_rules_url_for_points_at_the_variant_section(client: Client) -> None:
    tree, _ = get_page(client, "en")
    for name in PRESETS:
        url = rules_url_for(name)
        assert url == f"/rules/#variant-{name}"
        assert tree.select(id=url.split("#")[1])
    with pytest.raises(ValueError):
        rules_url_for("no-such-variant")


@pytest.mark.django_db  # the home page reads the puzzle of the day
def test_links_to_the_guide_from_the_home_page_and_the_footer(client: Client) -> None:
    home = parse(client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    footer = home.one("footer")
    assert footer.select("a", href="/rules/")
    assert home.one("main").select("a", href="/rules/")


def test_timers_come_from_the_clock_settings(client: Client, settings) -> None:
    from rules_guide.views import guide_body

    settings.TURN_SECONDS = 45
    settings.DISCONNECT_GRACE_SECONDS = 90
    settings.ABANDON_SECONDS = 600
    guide_body.cache_clear()
    try:
        en, _ = get_page(client, "en")
        fr, _ = get_page(client, "fr")
    finally:
        guide_body.cache_clear()
    timers = en.one("ul", **{"class": "timers"})
    assert (timers.attrs["data-turn"], timers.attrs["data-grace"], timers.attrs["data-abandon"]) == (
        "45 seconds",
        "1 minute 30 seconds",
        "10 minutes",
    )
    assert "45 seconds" in timers.text()
    assert "1 minute 30 seconds" in timers.text()
    assert "10 minutes" in timers.text()
    assert "45 secondes" in fr.one("ul", **{"class": "timers"}).text()


def test_the_verify_command_shown_exists(client: Client) -> None:
    import importlib.util

    tree, _ = get_page(client, "en")
    shown = tree.one(id="faq").select("pre")[0].text()
    assert shown == f"{VERIFY_COMMAND} replay.json"
    module = VERIFY_COMMAND.split()[-1]
    assert VERIFY_COMMAND.startswith("python -m ")
    assert importlib.util.find_spec(module) is not None


def test_the_page_is_light_and_every_tile_draws_from_the_shared_shapes(client: Client) -> None:
    """The guide's 459 tiles drew their own pips: 6,843 elements in all
    (docs/architecture.md, "Tiles"). Each tile now references the page's
    shared shapes: its <svg>, its frame and one <use> per half with pips."""
    from games.pages.tiles_svg import PIP_LAYOUT

    tree, _html = get_page(client, "en")
    elements = sum(1 for node in tree.iter() if node.tag != "#root")
    assert elements < 4300, elements
    (shapes,) = tree.find_all(lambda node: node.tag == "svg" and node.attrs.get("class") == "tile-symbols")
    defined = {node.attrs["id"] for node in shapes.iter() if "id" in node.attrs}
    assert defined == {"tile-frame-h", "tile-frame-v"} | {f"tile-pips-{n}" for n in range(1, 7)}
    for number in range(1, 7):
        pips = shapes.one("g", id=f"tile-pips-{number}")
        assert len(pips.select("circle")) == number == len(PIP_LAYOUT[number])
    tiles = tree.select("span", data_tile=True)
    assert len(tiles) > 400
    for tile in tiles:
        low, high = map(int, tile.attrs["data-tile"].split("-"))
        svg = tile.one("svg")
        a, b = map(int, svg.attrs["aria-label"].split("-"))
        assert {a, b} == {low, high}
        uses = svg.select("use")
        assert len(list(svg.iter())) - 1 == len(uses) <= 3  # nothing but references
        assert uses[0].attrs["href"] in ("#tile-frame-h", "#tile-frame-v")
        vertical = uses[0].attrs["href"] == "#tile-frame-v"
        halves = [(a, {}), (b, {"y": "100"} if vertical else {"x": "100"})]
        expected = [(f"#tile-pips-{n}", offset) for n, offset in halves if n]
        got = [(use.attrs["href"], {k: v for k, v in use.attrs.items() if k in "xy"}) for use in uses[1:]]
        assert got == expected, (tile.attrs, got)
