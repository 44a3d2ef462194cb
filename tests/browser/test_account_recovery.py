"""The account pages in the PWA, with mail through the session's real SMTP server (aiosmtpd): add and confirm an
email, ask for a reset link from the log-in page, open the mailed link, choose a new password and log in with it.
axe-core finds no WCAG 2 A/AA violation on these pages."""

from playwright.sync_api import expect

from tests.api.smtp_helpers import session_mailbox
from tests.browser.helpers import PASSWORD, sign_up
from tests.browser.test_accessibility import AXE, axe_violations

NEW_PASSWORD = "a new browser password"


def _link_in(message) -> str:
    text = message.get_body(preferencelist=("plain",)).get_content()
    return next(line.strip() for line in text.splitlines() if "/#/" in line and "token=" in line)


def test_email_confirmation_and_a_password_reset_in_the_pwa(api, app_url, launch, profile):
    assert AXE.exists(), f"{AXE} is missing: run `cd pwa && npm install`."
    mailbox = session_mailbox()
    mailbox.clear()
    page = launch(profile).new_page()
    sign_up(page, app_url, "browser-reset")

    page.get_by_role("link", name="browser-reset").click()
    expect(page.get_by_role("heading", level=1, name="Your account")).to_be_visible()
    expect(page.get_by_test_id("email-state")).to_have_text("No email address yet.")
    assert axe_violations(page) == []
    page.get_by_label("Email address").fill("browser-reset@example.org")
    page.get_by_role("button", name="Save the address").click()
    expect(page.get_by_role("status").filter(has_text="We mailed a confirmation link")).to_be_visible()

    # The mailed link points at this PWA's page (relative: PUBLIC_URL is not set in the tests).
    link = _link_in(mailbox.take("browser-reset@example.org"))
    assert link.startswith("/#/verify-email?token=")
    page.goto(app_url + link)
    expect(page.get_by_text("browser-reset@example.org is confirmed.")).to_be_visible()
    assert axe_violations(page) == []

    page.get_by_role("button", name="Log out").click()
    page.get_by_role("link", name="Forgot your password?").click()
    expect(page.get_by_role("heading", level=1, name="Reset your password")).to_be_visible()
    assert axe_violations(page) == []
    page.get_by_label("Username or email").fill("Browser-Reset@example.org")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_text("a reset link is on its way")).to_be_visible()

    link = _link_in(mailbox.take("browser-reset@example.org"))
    page.goto(app_url + link)
    expect(page.get_by_role("heading", level=1, name="Choose a new password")).to_be_visible()
    assert axe_violations(page) == []
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("The new password again").fill(NEW_PASSWORD + "!")
    page.get_by_role("button", name="Set the new password").click()
    expect(page.get_by_text("The two passwords differ.")).to_be_visible()
    page.get_by_label("The new password again").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Set the new password").click()
    expect(page.get_by_text("The password of browser-reset is changed")).to_be_visible()

    page.get_by_role("link", name="Log in").last.click()
    form = page.locator("form")
    form.get_by_label("Username").fill("browser-reset")
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()
    expect(page.get_by_text("Wrong username or password.")).to_be_visible()
    form.get_by_label("Password").fill(NEW_PASSWORD)
    form.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1, name="Tasks")).to_be_visible()
