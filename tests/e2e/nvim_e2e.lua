-- Neovim end-to-end test (Debian's nvim 0.7: vim.lsp.start_client).
-- Opens ops.c, starts `pointee lsp`, edits the buffer (incremental sync),
-- hovers, and jumps to a possible callee of an indirect call.
-- Env: POINTEE_BIN, POINTEE_ROOT (workspace folder), POINTEE_FILE.
local bin = os.getenv('POINTEE_BIN')
local root = os.getenv('POINTEE_ROOT')
local file = os.getenv('POINTEE_FILE')

local function find(pattern)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    local s = l:find(pattern, 1, true)
    if s then return i - 1, s - 1 end
  end
  error('not found: ' .. pattern)
end

local function run()
  vim.cmd('edit ' .. file)
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    cmd = { bin, 'lsp' },
    root_dir = root,
    name = 'pointee',
    flags = { debounce_text_changes = 10 },
  })
  assert(id, 'start_client failed')
  vim.lsp.buf_attach_client(buf, id)
  assert(vim.wait(20000, function()
    local c = vim.lsp.get_client_by_id(id)
    return c ~= nil and c.initialized
  end, 20), 'the server did not initialize')

  -- Edit: a new line before `int start(...)` (sent as an incremental change).
  local l = find('int start(struct device *d)')
  vim.api.nvim_buf_set_lines(buf, l, l, false, { '/* edited in Neovim */' })
  vim.wait(300)

  -- Hover `d` in `return d->ops->open(d->file);` (one line further down now).
  local hl, hc = find('return d->ops->open')
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = hl, character = hc + #'return ' },
  }
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 20000)
  assert(res and res[id] and res[id].result, 'no hover: ' .. vim.inspect(res))
  local md = res[id].result.contents.value
  assert(md:find('heap@28', 1, true), 'hover lacks heap@28: ' .. md)
  assert(md:find('Per calling context', 1, true), 'hover lacks contexts: ' .. md)

  -- The editor's own hover opens a floating window.
  vim.api.nvim_win_set_cursor(0, { hl + 1, hc + #'return ' })
  vim.lsp.buf.hover()
  assert(vim.wait(20000, function()
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(w).relative ~= '' then return true end
    end
    return false
  end, 20), 'no hover window')
  vim.cmd('silent! only')

  -- Jump to a possible callee: cursor on `open` of `d->ops->open(...)`.
  local ol, oc = find('open(d->file)')
  vim.api.nvim_win_set_cursor(0, { ol + 1, oc })
  vim.fn.setqflist({}, 'r')
  vim.lsp.buf.definition()
  assert(vim.wait(20000, function() return #vim.fn.getqflist() == 2 end, 20),
    'definition did not list two callees: ' .. vim.inspect(vim.fn.getqflist()))
  vim.cmd('cc 2')
  local row = vim.api.nvim_win_get_cursor(0)[1]
  local tl = find('int tty_open')
  local dl = find('int disk_open')
  assert(row == tl + 1 or row == dl + 1, 'jumped to line ' .. row)
  local line = vim.api.nvim_buf_get_lines(0, row - 1, row, false)[1]
  assert(line:find('_open', 1, true), 'not on a callee: ' .. line)
  vim.lsp.stop_client(id)
end

local ok, err = pcall(run)
if ok then
  io.stdout:write('nvim e2e: ok\n')
  vim.cmd('qall!')
else
  io.stderr:write('nvim e2e FAILED: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 1')
end
