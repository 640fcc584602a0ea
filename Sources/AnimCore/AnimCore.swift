// AnimCore: the animation engine. Time, values, curves, animations, timelines, clocks and
// events. It knows nothing of the language and does no I/O, so that any Swift program can
// embed it.
