"""Blocks and reports from a profile and a chat line (the evidence attached
by the site), and the moderators' queue in the admin: every action logged
with who took it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from community import services
from community.models import Block, ChatLine, ModerationAction, Report, Standing
from games.tests.helpers import ranked_table

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_block_and_unblock_from_the_profile(make_member) -> None:
    ada, bob = make_member("ada"), make_member("bob")
    client = logged_in(ada)
    page = client.get("/u/bob/").content.decode()
    assert "data-block" in page
    assert 'action="/u/bob/block/"' in page
    assert client.get("/u/bob/block/").status_code == 405  # POST only
    client.post("/u/bob/block/")
    assert Block.objects.filter(blocker=ada, blocked=bob).exists()
    assert 'action="/u/bob/unblock/"' in client.get("/u/bob/").content.decode()
    # Bob's profile of Ada says nothing of it.
    assert "unblock" not in logged_in(bob).get("/u/ada/").content.decode()
    client.post("/u/ada/block/")  # oneself: refused, nothing written
    assert Block.objects.count() == 1
    client.post("/u/bob/unblock/")
    assert not Block.objects.exists()
    assert Client().post("/u/bob/block/").status_code == 302  # to the login
    assert not Block.objects.exists()


def test_a_report_from_a_chat_line_carries_the_lines_and_the_game(make_member) -> None:
    ada, bob = make_member("ada"), make_member("bob")
    table = ranked_table([ada, bob])
    for text in ("hello", "you are terrible"):
        services.say(table_id=table.pk, game_id=table.game.pk, seat=1, user_id=bob.pk, text=text)
    line = ChatLine.objects.get(text="you are terrible")
    client = logged_in(ada)
    page = client.get(f"/u/bob/?report_line={line.pk}").content.decode()
    assert "you are terrible" in page
    assert f'name="chat_line" value="{line.pk}"' in page
    client.post("/u/bob/report/", {"reason": "abuse", "text": "rude", "chat_line": str(line.pk)})
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.reason, report.text) == (ada, bob, "abuse", "rude")
    assert report.chat_line == line
    assert report.game == table.game
    assert [item["text"] for item in report.evidence["chat"]] == ["hello", "you are terrible"]
    assert report.evidence["game"] == table.game.pk
    # A bad reason: refused, nothing written.
    client.post("/u/bob/report/", {"reason": "boring"})
    assert Report.objects.count() == 1


def test_the_moderators_act_from_the_admin_queue_and_every_action_is_logged(make_member) -> None:
    ada, bob = make_member("ada"), make_member("bob")
    staff = get_user_model().objects.create_superuser("mod", "mod@example.com", "secret-pass-123")
    report = services.report(reporter=ada, reported=bob, reason="abuse")
    admin = logged_in(staff)
    assert "bob" in admin.get("/admin/community/report/").content.decode()
    url = "/admin/community/report/"

    def act(action: str, **extra: str) -> None:
        admin.post(url, {"action": action, "_selected_action": [str(report.pk)], "index": "0", **extra})

    act("warn", reason="")  # no reason: nothing done
    assert not ModerationAction.objects.exists()
    act("warn", reason="be kind")
    # The result in the moderator's language, with the count.
    assert "1 member warned." in admin.get(url).content.decode()
    admin.cookies["django_language"] = "fr"
    act("chat_timeout", reason="insults", hours="2")
    assert "1 exclusion de la discussion donnée." in admin.get(url).content.decode()
    admin.cookies["django_language"] = "en"
    act("mark_troll", reason="spam")
    act("close_account", reason="repeated abuse")
    kinds = list(ModerationAction.objects.order_by("pk").values_list("kind", "moderator__username", "reason"))
    assert kinds == [
        ("warn", "mod", "be kind"), ("chat_timeout", "mod", "insults"), ("troll", "mod", "spam"),
        ("close", "mod", "repeated abuse"),
    ]
    standing = Standing.objects.get(member=bob)
    assert standing.troll
    assert standing.chat_timeout_reason == "insults"
    bob.refresh_from_db()
    report.refresh_from_db()
    assert not bob.is_active
    assert report.status == Report.Status.ACTED
    assert not Client().login(username="bob", password="secret-pass-123")


def test_the_member_sees_the_warning_and_the_timeout_with_its_reason(make_member) -> None:
    bob, staff = make_member("bob"), make_member("mod")
    services.warn(member=bob, moderator=staff, reason="be kind to beginners")
    services.chat_timeout(member=bob, moderator=staff, reason="insults at the table", hours=3)
    page = logged_in(bob).get("/u/bob/").content.decode()
    assert "be kind to beginners" in page
    assert "data-chat-timeout" in page
    assert "insults at the table" in page


def test_the_replay_shows_the_players_chat_to_the_players_only(make_member) -> None:
    from games.tests.helpers import play_out

    ada, bob, cleo = make_member("ada"), make_member("bob"), make_member("cleo")
    table = ranked_table([ada, bob])
    services.say(table_id=table.pk, game_id=table.game.pk, seat=0, user_id=ada.pk, text="<i>our secret</i>")
    services.say(table_id=table.pk, game_id=table.game.pk, seat=None, user_id=cleo.pk, text="go bob")
    play_out(table)
    url = f"/table/{table.pk}/replay/"
    for_ada = logged_in(ada).get(url).content.decode()
    assert "&lt;i&gt;our secret&lt;/i&gt;" in for_ada
    assert "go bob" not in for_ada
    for viewer in (logged_in(cleo), Client()):
        page = viewer.get(url).content.decode()
        assert "our secret" not in page
        assert "go bob" in page


def test_a_report_from_a_name_at_the_table_attaches_that_table_and_its_game(make_member) -> None:
    ada, bob = make_member("ada"), make_member("bob")
    make_member("cy")  # never at that table
    table = ranked_table([ada, bob])
    services.say(table_id=table.pk, game_id=table.game.pk, seat=1, user_id=bob.pk, text="you are terrible")
    client = logged_in(ada)
    # The table page's link on Bob's name opens his report form with the table.
    page = client.get(f"/u/bob/?report_table={table.pk}").content.decode()
    assert "data-report-table" in page
    assert f'<input type="hidden" name="table" value="{table.pk}">' in page
    french = logged_in(ada)
    french.cookies["django_language"] = "fr"
    assert "Signalé depuis la table" in french.get(f"/u/bob/?report_table={table.pk}").content.decode()
    # A table the reported member never sat at is not attached.
    assert "data-report-table" not in client.get(f"/u/cy/?report_table={table.pk}").content.decode()
    client.post("/u/bob/report/", {"reason": "abuse", "table": str(table.pk)})
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.table_id, report.game_id) == (ada, bob, table.pk, table.game.pk)
    assert report.evidence["table"] == table.pk
    assert [line["text"] for line in report.evidence["chat"]] == ["you are terrible"]


def test_the_moderators_lift_a_troll_mark_and_a_chat_timeout_from_the_admin_each_logged(make_member) -> None:
    ada, bob, cleo = make_member("ada"), make_member("bob"), make_member("cleo")
    staff = get_user_model().objects.create_superuser("mod", "mod@example.com", "secret-pass-123")
    services.mark_troll(member=bob, moderator=staff, reason="spam")
    services.chat_timeout(member=bob, moderator=staff, reason="insults", hours=2)
    table = ranked_table([ada, bob])
    admin = logged_in(staff)
    url = "/admin/community/standing/"
    assert "bob" in admin.get(url).content.decode()

    def act(action: str, *members, **extra: str):
        selected = [str(member.pk) for member in members]
        return admin.post(url, {"action": action, "_selected_action": selected, "index": "0", **extra}, follow=True)

    act("lift_chat_timeout", bob, reason="")  # no reason: nothing done
    assert Standing.objects.get(member=bob).chat_timeout_until is not None
    act("lift_chat_timeout", bob, reason="apologised")
    standing = Standing.objects.get(member=bob)
    assert (standing.chat_timeout_until, standing.chat_timeout_reason, standing.troll) == (None, "", True)
    # He writes again at once; still a troll, his line reaches only himself.
    delivery = services.say(table_id=table.pk, game_id=table.game.pk, seat=1, user_id=bob.pk, text="sorry")
    assert delivery.only_author
    # Lifting what is not there is refused, nothing logged.
    page = act("lift_chat_timeout", bob, reason="again").content.decode()
    assert "has no chat timeout running." in page  # the admin capitalises its messages
    # From a report too.
    report = services.report(reporter=ada, reported=bob, reason="abuse")
    admin.post("/admin/community/report/", {
        "action": "lift_troll", "_selected_action": [str(report.pk)], "index": "0", "reason": "behaves now",
    })
    assert not Standing.objects.get(member=bob).troll
    assert not services.say(table_id=table.pk, game_id=table.game.pk, seat=1, user_id=bob.pk, text="gg").only_author
    services.mark_troll(member=cleo, moderator=staff, reason="flood", troll=True)
    services.mark_troll(member=cleo, moderator=staff, reason="flood over", troll=False)
    assert "is not marked as a troll." in act("lift_troll", cleo, reason="again").content.decode()
    kinds = list(ModerationAction.objects.order_by("pk").values_list("kind", "moderator__username", "reason"))
    assert kinds == [
        ("troll", "mod", "spam"), ("chat_timeout", "mod", "insults"), ("lift_timeout", "mod", "apologised"),
        ("untroll", "mod", "behaves now"), ("troll", "mod", "flood"), ("untroll", "mod", "flood over"),
    ]
    report.refresh_from_db()
    assert report.status == Report.Status.ACTED
