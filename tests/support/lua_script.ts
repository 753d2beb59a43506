/**
 * Runs a Redis Lua script the way Redis does, for the Upstash fake: on fengari (Lua 5.3 in
 * JavaScript), with `KEYS` and `ARGV` as tables of strings and `redis.call` / `redis.pcall`
 * running commands on the fake's data, converting replies both ways by Redis's rules (integer
 * replies are Lua integers, a nil bulk string is `false`, status replies are `{ok=…}`, errors
 * `{err=…}`; a Lua number returned is an integer reply, truncated). A first line `#!lua …`
 * (Redis 7's flags line) is read by Redis, not by Lua: it becomes a comment here.
 */
import fengari from "fengari";

const { lua, lauxlib, lualib, to_luastring } = fengari;

/** A reply before encoding (the fake's own type). */
export type ScriptReply =
  | { status: string }
  | { bulk: string | null }
  | { int: number }
  | { array: ScriptReply[] }
  | { error: string };

/** A script that failed to compile or raised an error (the message is Redis's). */
export class ScriptError extends Error {}

// deno-lint-ignore no-explicit-any
type LuaState = any;

function pushReply(L: LuaState, reply: ScriptReply): void {
  if ("int" in reply) lua.lua_pushinteger(L, reply.int);
  else if ("status" in reply) {
    lua.lua_createtable(L, 0, 1);
    lua.lua_pushstring(L, to_luastring(reply.status));
    lua.lua_setfield(L, -2, to_luastring("ok"));
  } else if ("error" in reply) {
    lua.lua_createtable(L, 0, 1);
    lua.lua_pushstring(L, to_luastring(reply.error));
    lua.lua_setfield(L, -2, to_luastring("err"));
  } else if ("array" in reply) {
    lua.lua_createtable(L, reply.array.length, 0);
    reply.array.forEach((item, i) => {
      pushReply(L, item);
      lua.lua_rawseti(L, -2, i + 1);
    });
  } else if (reply.bulk === null) lua.lua_pushboolean(L, false);
  else lua.lua_pushstring(L, to_luastring(reply.bulk));
}

function toReply(L: LuaState, index: number): ScriptReply {
  const i = lua.lua_absindex(L, index);
  switch (lua.lua_type(L, i)) {
    case lua.LUA_TNUMBER:
      return { int: Math.trunc(lua.lua_tonumber(L, i)) };
    case lua.LUA_TSTRING:
      return { bulk: lua.lua_tojsstring(L, i) };
    case lua.LUA_TBOOLEAN:
      return lua.lua_toboolean(L, i) ? { int: 1 } : { bulk: null };
    case lua.LUA_TTABLE: {
      if (lua.lua_getfield(L, i, to_luastring("err")) === lua.LUA_TSTRING) {
        const error = lua.lua_tojsstring(L, -1);
        lua.lua_pop(L, 1);
        return { error };
      }
      lua.lua_pop(L, 1);
      if (lua.lua_getfield(L, i, to_luastring("ok")) === lua.LUA_TSTRING) {
        const status = lua.lua_tojsstring(L, -1);
        lua.lua_pop(L, 1);
        return { status };
      }
      lua.lua_pop(L, 1);
      const array: ScriptReply[] = [];
      // Up to the first nil, as Redis does.
      for (let n = 1; lua.lua_rawgeti(L, i, n) !== lua.LUA_TNIL; n++) {
        array.push(toReply(L, -1));
        lua.lua_pop(L, 1);
      }
      lua.lua_pop(L, 1);
      return { array };
    }
    default:
      return { bulk: null };
  }
}

function pushStrings(L: LuaState, values: string[]): void {
  lua.lua_createtable(L, values.length, 0);
  values.forEach((v, i) => {
    lua.lua_pushstring(L, to_luastring(v));
    lua.lua_rawseti(L, -2, i + 1);
  });
}

/**
 * Runs `source` with `keys` and `args`; `call` runs one command (name first, as strings) and
 * throws for a command error. Returns the script's reply; throws ScriptError as Redis would
 * answer an error.
 */
export function runScript(
  source: string,
  keys: string[],
  args: string[],
  call: (command: string[]) => ScriptReply,
): ScriptReply {
  const L = lauxlib.luaL_newstate();
  lualib.luaL_openlibs(L);
  pushStrings(L, keys);
  lua.lua_setglobal(L, to_luastring("KEYS"));
  pushStrings(L, args);
  lua.lua_setglobal(L, to_luastring("ARGV"));
  const command = (protectedCall: boolean) => (S: LuaState) => {
    const n = lua.lua_gettop(S);
    const cmd: string[] = [];
    for (let i = 1; i <= n; i++) {
      const t = lua.lua_type(S, i);
      if (t !== lua.LUA_TSTRING && t !== lua.LUA_TNUMBER) {
        return lauxlib.luaL_error(
          S,
          to_luastring("Lua redis lib command arguments must be strings or integers"),
        );
      }
      cmd.push(lua.lua_tojsstring(S, i));
    }
    cmd[0] = (cmd[0] ?? "").toUpperCase();
    let reply: ScriptReply;
    try {
      reply = call(cmd);
    } catch (err) {
      reply = { error: err instanceof Error ? err.message : String(err) };
    }
    if ("error" in reply && !protectedCall) return lauxlib.luaL_error(S, to_luastring(reply.error));
    pushReply(S, reply);
    return 1;
  };
  lua.lua_createtable(L, 0, 2);
  lua.lua_pushcfunction(L, command(false));
  lua.lua_setfield(L, -2, to_luastring("call"));
  lua.lua_pushcfunction(L, command(true));
  lua.lua_setfield(L, -2, to_luastring("pcall"));
  lua.lua_setglobal(L, to_luastring("redis"));
  const body = source.startsWith("#!") ? `--${source.slice(2)}` : source;
  if (lauxlib.luaL_loadstring(L, to_luastring(body)) !== lua.LUA_OK) {
    throw new ScriptError(`ERR Error compiling script: ${lua.lua_tojsstring(L, -1)}`);
  }
  if (lua.lua_pcall(L, 0, 1, 0) !== lua.LUA_OK) {
    throw new ScriptError(`ERR Error running script: ${lua.lua_tojsstring(L, -1)}`);
  }
  const reply = toReply(L, -1);
  if ("error" in reply) throw new ScriptError(reply.error);
  return reply;
}
