-- wrk script for scripts/bench-http's search run: a page of 20 by relevance for each of a mix
-- of what buyers type (two-syllable words, a compound without its space, several words, a Latin
-- prefix, initials, a text with a filter), in turn. Percent-encoded UTF-8, as a browser sends it.
local queries = {
  "/products?limit=20&q=%EA%B0%88%EC%B6%95",                                      -- 갈축
  "/products?limit=20&q=%EA%B8%B0%EA%B3%84%EC%8B%9D%ED%82%A4%EB%B3%B4%EB%93%9C",  -- 기계식키보드
  "/products?limit=20&q=%EC%A0%80%EC%86%8C%EC%9D%8C+%EB%B0%94%EB%8B%A4%EC%B6%95", -- 저소음 바다축
  "/products?limit=20&q=han",                                                      -- Hanul by prefix
  "/products?limit=20&q=PBT+%ED%82%A4%EC%BA%A1",                                   -- PBT 키캡
  "/products?limit=20&q=%ED%82%A4%EB%B3%B4%EB%93%9C&category=keyboard",            -- 키보드, keyboards only
  "/products?limit=20&q=%E3%84%B1%E3%85%8A",                                       -- ㄱㅊ
  "/products?limit=20&q=%EC%86%90%EB%AA%A9%EB%B0%9B%EC%B9%A8%EB%8C%80",            -- 손목받침대
}
local counter = 0

request = function()
  counter = counter + 1
  return wrk.format("GET", queries[1 + counter % #queries])
end

-- Each thread tallies the statuses of the answers that were not 2xx, as the mixed run does.
local threads = {}
function setup(thread) threads[#threads + 1] = thread end

statuses = {}
response = function(status, headers, body)
  if status >= 300 then
    local key = tostring(status) .. " " .. (string.match(body or "", '"code" *: *"([^"]+)"') or "-")
    statuses[key] = (statuses[key] or 0) + 1
  end
end

done = function(summary, latency, requests)
  for _, thread in ipairs(threads) do
    for key, count in pairs(thread:get("statuses")) do io.write(string.format("refused: %s %d\n", key, count)) end
  end
end
