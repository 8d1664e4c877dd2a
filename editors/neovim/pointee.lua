-- pointee for Neovim 0.7+: starts `pointee lsp` for C and Java buffers and
-- attaches every buffer of a project to one client. Hover (K), go to
-- definition on an indirect call (every possible callee), references and
-- diagnostics then come from pointee.
local M = {}

local defaults = {
  cmd = { "pointee", "lsp" },
  filetypes = { "c", "java" },
  java_cs = "2-obj",
  markers = { ".git", "compile_commands.json", "Cargo.toml", "pom.xml" },
}

local clients = {} -- root directory -> client id

local function root_of(path, markers)
  local dir = vim.fn.fnamemodify(path, ":p:h")
  while dir ~= "/" and dir ~= "" do
    for _, m in ipairs(markers) do
      if vim.loop.fs_stat(dir .. "/" .. m) then
        return dir
      end
    end
    dir = vim.fn.fnamemodify(dir, ":h")
  end
  return vim.fn.getcwd()
end

function M.setup(opts)
  local o = vim.tbl_deep_extend("force", defaults, opts or {})
  local group = vim.api.nvim_create_augroup("pointee", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = o.filetypes,
    callback = function(args)
      local root = root_of(vim.api.nvim_buf_get_name(args.buf), o.markers)
      local id = clients[root]
      if not id or not vim.lsp.get_client_by_id(id) then
        id = vim.lsp.start_client({
          name = "pointee",
          cmd = o.cmd,
          root_dir = root,
          workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
          init_options = { java = { contextSensitivity = o.java_cs } },
        })
        clients[root] = id
      end
      if id then
        vim.lsp.buf_attach_client(args.buf, id)
      end
    end,
  })
end

return M
