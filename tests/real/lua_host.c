/* A small host for Lua 5.4.7: runs a script through the C API (pointee's
 * real-program smoke test analyses Lua with this `main`). */
#include <stdio.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

static int add(lua_State *L) {
    lua_Integer a = luaL_checkinteger(L, 1);
    lua_Integer b = luaL_checkinteger(L, 2);
    lua_pushinteger(L, a + b);
    return 1;
}

int main(int argc, char **argv) {
    const char *script = argc > 1 ? argv[1]
        : "local t = {} for i = 1, 10 do t[i] = add(i, i) end\n"
          "assert(t[10] == 20)\n"
          "local s = string.format('%d:%s', #t, table.concat(t, ',', 1, 3))\n"
          "assert(s == '10:2,4,6')";
    lua_State *L = luaL_newstate();
    if (L == NULL)
        return 1;
    luaL_openlibs(L);
    lua_register(L, "add", add);
    if (luaL_dostring(L, script) != LUA_OK) {
        fprintf(stderr, "%s\n", lua_tostring(L, -1));
        lua_close(L);
        return 1;
    }
    lua_close(L);
    return 0;
}
