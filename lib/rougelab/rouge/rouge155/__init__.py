"""A ROUGE-1.5.5.pl compatible front end: its options, configuration files and printed report.

``rougelab rouge155 [ROUGE-1.5.5 options] CONFIG [systemID]`` runs ``cli.main``. Modules: ``commandline``
(options), ``config`` (XML and ``-z`` lists), ``formats`` (SEE / ISI / SPL readers), ``basic_elements``
(``-3``), ``drand48`` and ``bootstrap`` (Perl's resampling), ``report`` (the printed lines), ``datadir``
(``-e``).
"""
