-- Takes the screenshots of docs/editors.md for TestNeovimScreenshots:
-- Neovim, with its built-in LSP client on soni lsp, runs in a tmux pane;
-- each step does what an author does (types, asks for a completion, a
-- hover...), waits until the screen shows the result, and saves the
-- pane's text with its colours to $SONI_SHOTS/NAME.ansi. At the end it
-- signals the tmux channel soni-done, which the test waits for.
local bin, root, shots, sock = os.getenv('SONI_BIN'), os.getenv('SONI_ROOT'), os.getenv('SONI_SHOTS'), os.getenv('SONI_TMUX')

vim.o.number = true
vim.o.signcolumn = 'yes'
vim.o.laststatus = 2
vim.o.showmode = true
vim.o.completeopt = 'menuone,noinsert'
vim.o.list = true
vim.o.listchars = 'trail:~,tab:>-'
vim.o.swapfile = false
vim.cmd([[
  highlight Pmenu ctermbg=238 ctermfg=252
  highlight PmenuSel ctermbg=31 ctermfg=231
  highlight NormalFloat ctermbg=236 ctermfg=252
  highlight FloatBorder ctermbg=236 ctermfg=245
  highlight SignColumn ctermbg=NONE
  highlight StatusLine ctermbg=238 ctermfg=252 cterm=NONE
  highlight QuickFixLine ctermbg=238
]])
vim.lsp.handlers['textDocument/hover'] = vim.lsp.with(vim.lsp.handlers.hover, { border = 'single' })
vim.diagnostic.config({ virtual_text = true, signs = true, underline = true, severity_sort = true })

local id = vim.lsp.start_client({ name = 'soni', cmd = { bin, 'lsp' }, root_dir = root })
local function attach_all()
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.api.nvim_buf_get_name(b):match('%.yaml$') then
      vim.lsp.buf_attach_client(b, id)
      vim.bo[b].omnifunc = 'v:lua.vim.lsp.omnifunc'
    end
  end
end
vim.api.nvim_create_autocmd('BufEnter', { pattern = '*.yaml', callback = attach_all })

local function tmux(args)
  local cmd = { 'tmux', '-S', sock }
  vim.list_extend(cmd, args)
  return vim.fn.system(cmd)
end
local function screen() return tmux({ 'capture-pane', '-p', '-t', 'soni' }) end

local function has_code(code)
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.code == code then return true end
  end
  return false
end

-- A float that lists what vim.ui.select offers (code actions), so that the
-- choice shows on the screen; the next step picks the first item.
local pending
vim.ui.select = function(items, opts, on_choice)
  local lines = { (opts.prompt or 'Select') }
  for i, it in ipairs(items) do
    table.insert(lines, string.format('%d: %s', i, opts.format_item and opts.format_item(it) or tostring(it)))
  end
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  local width = 0
  for _, l in ipairs(lines) do width = math.max(width, #l) end
  local win = vim.api.nvim_open_win(buf, false, { relative = 'cursor', row = 1, col = 0, width = width + 2, height = #lines, style = 'minimal', border = 'single' })
  pending = { items = items, on_choice = on_choice, win = win }
end

local steps = {}
local function step(name, action, done, expect)
  table.insert(steps, { name = name, action = action, done = done, expect = expect })
end
local function key(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'n', false)
end

step(nil, function()
  vim.cmd('edit trip.yaml')
  vim.api.nvim_win_set_cursor(0, { 23, 0 })
  vim.cmd('normal! zz')
end, function() return #vim.diagnostic.get(0) >= 2 end)

-- Diagnostics as you type: delete the i of {city}.
step('diagnostics', function()
  vim.api.nvim_win_set_cursor(0, { 23, 39 })
  key('x')
end, function() return has_code('E032') end, 'unknown slot "cty"')

-- Completion of a slot inside the braces.
step('completion', function()
  vim.api.nvim_win_set_cursor(0, { 23, 37 })
  key('a<C-x><C-o>')
end, function() return vim.fn.pumvisible() == 1 end, 'Variable')

step(nil, function() key('<Esc>') end, function() return vim.fn.mode() == 'n' end)

-- Code actions for the mistake: the did-you-mean and declaring the slot.
-- The first one fixes it.
step(nil, function() vim.api.nvim_win_set_cursor(0, { 23, 39 }) end)
step('code-actions', function()
  vim.lsp.buf.code_action()
end, function() return pending ~= nil end, 'Change to "city"')

step(nil, function()
  vim.api.nvim_win_close(pending.win, true)
  pending.on_choice(pending.items[1], 1)
end, function() return not has_code('E032') end)

-- Hover on an action.
-- (The cursor moves in a step of its own: a float opened in the same
-- step would close at the CursorMoved that follows.)
step(nil, function() vim.api.nvim_win_set_cursor(0, { 31, 16 }) end)
step('hover', function()
  vim.lsp.buf.hover()
end, nil, 'Inputs: ')

-- Go to definition: from the action step's call to the declaration.
step('definition', function()
  vim.api.nvim_win_set_cursor(0, { 31, 16 })
  vim.lsp.buf.definition()
end, function() return vim.api.nvim_buf_get_name(0):match('domain%.yaml$') ~= nil end, 'Book a hotel room')

-- Find references of the slot city, tests included.
step('references', function()
  vim.cmd('edit trip.yaml')
  vim.api.nvim_win_set_cursor(0, { 18, 14 })
  vim.lsp.buf.references()
end, function() return #vim.fn.getqflist() >= 8 end, 'tests/trip.yaml|9 col 13')

-- Rename city to town, across the flows, the domain and the tests.
step(nil, function()
  vim.cmd('cclose')
  vim.api.nvim_win_set_cursor(0, { 18, 14 })
  vim.lsp.buf.rename('town')
end, function()
  return vim.api.nvim_buf_get_lines(0, 17, 18, false)[1]:find('town') ~= nil
end, nil)

step('rename', function()
  attach_all()
  vim.cmd('vsplit domain.yaml')
  vim.cmd('split tests/trip.yaml')
  vim.api.nvim_win_set_cursor(0, { 9, 0 })
end, function()
  -- The other files' new text reached the server: trip.yaml's
  -- diagnostics are the two warnings again, now about town.
  local ds = vim.diagnostic.get(vim.fn.bufnr('trip.yaml'))
  return #ds == 2 and ds[1].message:find('"town"', 1, true) ~= nil
end, '- town: paris')

-- The document's symbols: flows and their steps.
step('symbols', function()
  vim.cmd('silent! only')
  vim.cmd('edit trip.yaml')
  vim.lsp.buf.document_symbol()
end, function() return #vim.fn.getloclist(0) > 0 or #vim.fn.getqflist() > 0 end, '[Function] book_trip')

-- Formatting that keeps the comments.
step('format-before', function()
  vim.cmd('lclose')
  vim.cmd('cclose')
  vim.cmd('silent! only')
  vim.cmd('edit greet.yaml')
end, nil, '#A greeting')

step('format-after', function()
  vim.lsp.buf.formatting_sync(nil, 20000)
end, nil, '# A greeting')

local function save(name)
  vim.fn.writefile(vim.split(tmux({ 'capture-pane', '-p', '-e', '-t', 'soni' }), '\n', { plain = true }), shots .. '/' .. name .. '.ansi')
end

local function finish(err)
  if err then
    vim.fn.writefile({ tostring(err) }, shots .. '/error.txt')
  end
  tmux({ 'wait-for', '-S', 'soni-done' })
  vim.cmd('qa!')
end

local function run(i, started)
  local s = steps[i]
  if not s then return finish() end
  if not started then
    local ok, err = pcall(s.action)
    if not ok then return finish('step ' .. (s.name or i) .. ': ' .. tostring(err)) end
    started = vim.loop.now()
  end
  local ok, ready = pcall(function()
    if s.done and not s.done() then return false end
    if s.expect then
      vim.cmd('redraw')
      return screen():find(s.expect, 1, true) ~= nil
    end
    return true
  end)
  if ok and ready then
    if s.name then save(s.name) end
    return vim.defer_fn(function() run(i + 1) end, 0)
  end
  if vim.loop.now() - started > 60000 then
    return finish('step ' .. (s.name or i) .. ' never finished' .. (ok and '' or ': ' .. tostring(ready)) .. '\n' .. screen())
  end
  vim.defer_fn(function() run(i, started) end, 50)
end

vim.defer_fn(function() run(1) end, 0)
