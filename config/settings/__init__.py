"""Settings modules: ``base`` reads everything from the environment; ``local``
(development, the default of manage.py), ``test`` and ``production`` adjust it."""
