/** The exit code a command asks for (gate: 1 on regression); main() returns it. */
export const exitState = { code: 0 };
