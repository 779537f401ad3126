// The program that owns the tests' precompiled header (tests/CMakeLists.txt): it is built, never run.
int main() { return 0; }
