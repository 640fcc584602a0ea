// GNU readline for Swift. readline.h uses FILE without including <stdio.h>, so it comes first.
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>
