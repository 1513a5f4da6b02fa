-- Drives soni lsp through Neovim's built-in LSP client, headless, for
-- TestNeovim: opens testdata/trip's flow file, types a mistake, and writes
-- what the client read back (diagnostics, a completion list, a definition
-- and a rename) as JSON to $SONI_OUT.
local bin, root, out = os.getenv('SONI_BIN'), os.getenv('SONI_ROOT'), os.getenv('SONI_OUT')
local result = {}

local function finish()
  vim.fn.writefile({ vim.fn.json_encode(result) }, out)
  vim.cmd('qa!')
end

local function wait(what, cond)
  if not vim.wait(60000, cond, 20) then
    error('timed out waiting for ' .. what)
  end
end

local function diagnostics(buf)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out, { lnum = d.lnum, col = d.col, end_col = d.end_col, code = d.code, message = d.message, severity = d.severity })
  end
  table.sort(out, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
  return out
end

local function request(buf, method, params)
  local responses, err = vim.lsp.buf_request_sync(buf, method, params, 60000)
  if not responses then
    error(method .. ': ' .. tostring(err))
  end
  for _, r in pairs(responses) do
    if r.error then
      error(method .. ': ' .. vim.inspect(r.error))
    end
    return r.result
  end
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. root .. '/trip.yaml')
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({ name = 'soni', cmd = { bin, 'lsp' }, root_dir = root })
  assert(id, 'the client did not start')
  vim.lsp.buf_attach_client(buf, id)
  wait('the first diagnostics', function() return #vim.diagnostic.get(buf) >= 2 end)
  result.opened = diagnostics(buf)

  -- Type a mistake: on line 23, `message: "How many nights in {city}?"`,
  -- delete the i of city, as x in normal mode does.
  vim.api.nvim_win_set_cursor(0, { 23, 39 })
  vim.cmd('normal! x')
  wait('the mistake\'s diagnostic', function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == 'E032' then return true end
    end
    return false
  end)
  result.typed = diagnostics(buf)
  result.line = vim.api.nvim_buf_get_lines(buf, 22, 23, false)[1]

  -- Completion inside the braces, at {ct|y}.
  local items = request(buf, 'textDocument/completion', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = 22, character = 40 },
  })
  result.completion = {}
  for _, it in ipairs(items.items or items) do
    table.insert(result.completion, it.label)
  end

  -- Undo the mistake, then go to the definition of book_hotel (line 31).
  vim.cmd('normal! u')
  wait('the mistake to go', function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == 'E032' then return false end
    end
    return true
  end)
  result.undone = diagnostics(buf)
  local defs = request(buf, 'textDocument/definition', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = 30, character = 16 },
  })
  result.definition = defs

  -- Rename the slot city (at line 18) to town, and apply the edit to
  -- every file, as the client's rename does.
  local edit = request(buf, 'textDocument/rename', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = 17, character = 15 },
    newName = 'town',
  })
  vim.lsp.util.apply_workspace_edit(edit, 'utf-16')
  result.renamed = {}
  for _, name in ipairs({ 'trip.yaml', 'domain.yaml', 'tests/trip.yaml' }) do
    local b = vim.fn.bufnr(root .. '/' .. name)
    -- The edit loaded the other files into buffers: the server gets
    -- their new text when the client attaches them.
    vim.lsp.buf_attach_client(b, id)
    result.renamed[name] = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n')
  end
  wait('the diagnostics after the rename', function()
    local ds = vim.diagnostic.get(buf)
    return #ds >= 1 and ds[1].message:find('"town"', 1, true) ~= nil
  end)
  result.after_rename = diagnostics(buf)
end)
if not ok then
  result.error = tostring(err)
end
finish()
