// The pre-parse shape scan (toml_shape.hpp): one pass over the text, tracking only what decides
// nesting (strings and comments, which may hold brackets; brackets; keys and table headers).
#include "input/toml_shape.hpp"

#include <fmt/format.h>
#include <toml.hpp>

#include <algorithm>
#include <vector>

namespace rodcollide::toml_input {

namespace {

class Scanner {
public:
    explicit Scanner(std::string_view text) : s_(text) {}

    Shape run() {
        bool line_start = true;  // only blanks so far on this line
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '\n') {
                end_line();
                ++line_;
                if (stack_.empty()) start_key(i_ + 1);
                line_start = true;
                ++i_;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                ++i_;
            } else if (c == '#') {
                while (i_ < s_.size() && s_[i_] != '\n') ++i_;
            } else if (c == '"' || c == '\'') {
                skip_string(c);
                line_start = false;
            } else if (line_start && stack_.empty() && c == '[') {
                header();
                line_start = false;
            } else {
                line_start = false;
                key_position_ ? key_char(c) : value_char(c);
            }
        }
        end_line();
        return std::move(shape_);
    }

private:
    /// Adds the cost of the line ending at i_ (see max_line_work).
    void end_line() {
        const double length = static_cast<double>(i_ - line_begin_);
        work_ += static_cast<double>(line_values_) * length;
        if (work_ > max_line_work)
            fail(fmt::format("this line holds {} values in {} characters, and lines of many values cost "
                             "(values x length) to parse, over the limit of {:.0e} for a file; split long "
                             "arrays over several lines", line_values_, i_ - line_begin_, max_line_work));
        line_begin_ = i_ + 1;
        line_values_ = 1;
    }

    void start_key(std::size_t at) {
        key_position_ = true;
        key_parts_ = 1;
        key_start_ = at;
    }

    [[noreturn]] void fail(const std::string& message) const {
        std::string written = key_;  // a key being read is shown as far as it is written
        if (key_position_ && stack_.empty()) written = trim(s_.substr(key_start_, std::min<std::size_t>(i_ - key_start_, 2 * longest_shown_key)));
        std::string key = written.empty() ? std::string("(syntax)") : shown_key(written);
        if (!table_.empty() && !written.empty()) key = shown_key(table_) + "." + key;
        throw ShapeError(line_, std::move(key), message);
    }

    void count_part() {
        if (++key_parts_ > max_key_parts)
            fail(fmt::format("a key or table header of more than {} dotted parts; at most {} are read",
                             max_key_parts, max_key_parts));
    }

    void key_char(char c) {
        if (c == '=') {
            key_position_ = false;
            if (stack_.empty()) key_ = trim(s_.substr(key_start_, i_ - key_start_));
        } else if (c == '.') {
            count_part();
        } else if (c == '}' && !stack_.empty()) {  // "{}": an empty inline table
            stack_.pop_back();
            key_position_ = false;
        }
        ++i_;
    }

    void value_char(char c) {
        if (c == '[' || c == '{') {
            if (stack_.size() == max_nesting)
                fail(fmt::format("arrays and inline tables nested more than {} deep; at most {} levels are read",
                                 max_nesting, max_nesting));
            stack_.push_back(c);
            if (c == '{') start_key(i_ + 1);
        } else if ((c == ']' || c == '}') && !stack_.empty()) {
            stack_.pop_back();
        } else if (c == ',') {
            ++line_values_;
            if (!stack_.empty() && stack_.back() == '{') start_key(i_ + 1);
        }
        ++i_;
    }

    /// [name] or [[name]], on one line; an array of tables is counted under its name with blanks
    /// and quotes of a one-part name removed ([[ "rod" ]] is [[rod]]).
    void header() {
        const bool array = i_ + 1 < s_.size() && s_[i_ + 1] == '[';
        i_ += array ? 2 : 1;
        const std::size_t start = i_;
        key_parts_ = 1;
        key_position_ = false;  // the rest of the line is a comment or a mistake for the parser
        table_.clear();
        key_ = trim(s_.substr(start, std::min(s_.find_first_of("]\n", start), start + 2 * longest_shown_key) - start));
        while (i_ < s_.size() && s_[i_] != ']' && s_[i_] != '\n') {
            if (s_[i_] == '"' || s_[i_] == '\'') {
                skip_string(s_[i_]);
                continue;
            }
            if (s_[i_] == '.') count_part();
            ++i_;
        }
        std::string name = trim(s_.substr(start, i_ - start));
        if (name.size() >= 2 && (name.front() == '"' || name.front() == '\'') && name.back() == name.front() &&
            name.find_first_of("\\.", 1) == std::string::npos)
            name = name.substr(1, name.size() - 2);
        table_ = name;
        key_.clear();
        if (array) {
            Shape::Headers& h = shape_.array_tables[name];
            if (h.count++ == 0) h.first_line = line_;
        }
        while (i_ < s_.size() && s_[i_] == ']') ++i_;
    }

    /// Skips a string starting at i_ with quote `q` (' or "), one-line or multi-line (tripled),
    /// counting lines. An unterminated one-line string stops at the line's end (the parser says
    /// what is wrong).
    void skip_string(char q) {
        const bool multi = s_.substr(i_, 3) == std::string_view(q == '"' ? "\"\"\"" : "'''");
        i_ += multi ? 3 : 1;
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '\\' && q == '"') {
                if (i_ + 1 < s_.size() && s_[i_ + 1] == '\n') ++line_;
                i_ += 2;
                continue;
            }
            if (c == '\n') {
                if (!multi) return;
                ++line_;
            }
            if (c == q && (!multi || s_.substr(i_, 3) == std::string_view(q == '"' ? "\"\"\"" : "'''"))) {
                i_ += multi ? 3 : 1;
                if (multi)  // up to two quotes may close the string's content: """a"""""
                    for (int k = 0; k < 2 && i_ < s_.size() && s_[i_] == q; ++k) ++i_;
                return;
            }
            ++i_;
        }
    }

    static std::string trim(std::string_view t) {
        const auto b = t.find_first_not_of(" \t\r");
        if (b == std::string_view::npos) return {};
        return std::string(t.substr(b, t.find_last_not_of(" \t\r") - b + 1));
    }

    std::string_view s_;
    std::size_t i_ = 0, line_ = 1;
    std::size_t line_begin_ = 0, line_values_ = 1;  // the current line: its start, values so far
    double work_ = 0;                               // sum of values x length over the lines so far
    std::vector<char> stack_;  // open arrays '[' and inline tables '{'
    bool key_position_ = true;
    std::size_t key_parts_ = 1, key_start_ = 0;
    std::string key_, table_;  // the key being assigned at the top of its table, and that table
    Shape shape_;
};

}  // namespace

namespace {

/// Offset of the first byte that does not belong to well-formed UTF-8 (no overlong forms, no
/// surrogates, nothing above U+10FFFF), or npos. TOML files are UTF-8, and toml11 3.7 reads past
/// the end of a literal string that holds a stray continuation byte (found by fuzzing).
std::size_t first_invalid_utf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto b = static_cast<unsigned char>(text[i]);
        if (b < 0x80) {
            ++i;
            continue;
        }
        std::size_t n = 0;
        unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
        if (b >= 0xC2 && b <= 0xDF) n = 1;
        else if (b == 0xE0) n = 2, low = 0xA0;
        else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) n = 2;
        else if (b == 0xED) n = 2, high = 0x9F;
        else if (b == 0xF0) n = 3, low = 0x90;
        else if (b >= 0xF1 && b <= 0xF3) n = 3;
        else if (b == 0xF4) n = 3, high = 0x8F;
        else return i;
        if (i + n >= text.size()) return i;  // truncated sequence
        for (std::size_t k = 1; k <= n; ++k) {
            const auto c = static_cast<unsigned char>(text[i + k]);
            if (k == 1 ? (c < low || c > high) : (c < 0x80 || c > 0xBF)) return i;
        }
        i += n + 1;
    }
    return std::string_view::npos;
}

}  // namespace

std::string shown_key(const std::string& key) {
    // Cut before formatting: formatting (quoting, escapes) costs more than linear time on huge keys.
    std::string name = toml::format_key(key.substr(0, longest_shown_key + 1));
    if (name.size() > longest_shown_key) name = name.substr(0, longest_shown_key - 3) + "...";
    return name;
}

Shape scan_shape(std::string_view text) {
    if (const std::size_t bad = first_invalid_utf8(text); bad != std::string_view::npos) {
        const auto line = static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n')) + 1;
        throw ShapeError(line, "(encoding)", fmt::format("not valid UTF-8 (byte 0x{:02X}); TOML files are UTF-8",
                                               static_cast<unsigned char>(text[bad])));
    }
    return Scanner(text).run();
}

}  // namespace rodcollide::toml_input
