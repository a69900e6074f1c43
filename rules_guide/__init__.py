"""The rules guide (/rules/): a page on top of the other apps. It reads the
engine, the variants (games.play.variants, which also gives other apps the links
into the guide) and nothing imports it."""
