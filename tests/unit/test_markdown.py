"""Owners' markdown as safe HTML (server/core/markdown.py): task instructions and campaign texts share it."""

from server.campaigns.text import to_safe_html as campaign_renderer
from server.core.markdown import to_safe_html


def test_markdown_renders():
    html = to_safe_html("# Write\n\nA **hard** example, see [the guide](https://example.org/guide).\n\n- one\n- two")
    assert "<h1>Write</h1>" in html and "<strong>hard</strong>" in html and "<li>one</li>" in html
    assert 'href="https://example.org/guide"' in html and 'rel="noopener noreferrer nofollow"' in html


def test_scripts_handlers_and_javascript_urls_are_dropped():
    html = to_safe_html(
        '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[click](javascript:alert(3)) '
        '<a href="javascript:alert(4)">x</a> <iframe src="https://evil"></iframe>'
    )
    for bad in ("<script", "<img", "<iframe", '<a href="javascript'):
        assert bad not in html, html
    assert "&lt;script&gt;" in html and "&lt;img" in html  # raw HTML is shown as text, never run


def test_campaigns_use_the_same_renderer():
    assert campaign_renderer is to_safe_html
