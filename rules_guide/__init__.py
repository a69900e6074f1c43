"""The rules guide (/rules/). Other apps link into it with ``rules_url_for(preset)``."""


def rules_url_for(preset: str) -> str:
    """``/rules/#variant-<preset>``: the guide opened at that variant's rules (see ``links``)."""
    from rules_guide.links import rules_url_for as url_for

    return url_for(preset)
