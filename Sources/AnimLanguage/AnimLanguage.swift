// AnimLanguage: the `.anim` front end. Source text, lexer, parser, syntax tree, checker,
// diagnostics and formatter.
