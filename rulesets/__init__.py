"""The built-in rule-set plugins, each registered through the ``campaign_tui.rulesets``
entry-point group exactly as a third-party plugin would be."""
